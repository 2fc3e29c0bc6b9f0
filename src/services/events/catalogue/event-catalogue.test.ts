/** The event catalogue is the one list: the SQL CHECK constraints' copies equal it, and every webhook type is fed. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { EVENT_CATALOGUE } from './event-catalogue.js';
import { WEBHOOK_TYPES } from './webhook-types.js';

const MIGRATIONS = new URL('../../../store/migrations/', import.meta.url);

describe('event catalogue', () => {
  for (const engine of ['sqlite', 'postgres']) {
    it(`${engine}: the CHECK constraint of webhooks.event lists exactly the catalogue's webhook types`, () => {
      // The newest migration that writes the constraint (011 made it, 014 widened it for wallet hooks).
      const sql = readFileSync(new URL(`${engine}-016-wallet-webhooks.sql`, MIGRATIONS), 'utf8');
      const check = /\bCHECK \(event IN \(([^)]*)\)\)/.exec(sql);
      assert.ok(check, 'the constraint is where it was');
      const listed = check[1]!.split(',').map((v) => v.trim().replace(/^'|'$/g, ''));
      assert.deepEqual(listed, [...WEBHOOK_TYPES]);
    });
  }

  it('every webhook type is fed by some kind of domain event, and only known types are named', () => {
    const fed = new Set(Object.values(EVENT_CATALOGUE).flatMap((kind) => [...kind.webhooks]));
    assert.deepEqual([...WEBHOOK_TYPES].filter((type) => !fed.has(type)), []);
    assert.deepEqual([...fed].filter((type) => !WEBHOOK_TYPES.includes(type)), []);
  });

  it('a kind that makes deliveries itself names the types it makes them for', () => {
    for (const [kind, entry] of Object.entries(EVENT_CATALOGUE)) {
      if (entry.webhookBody !== null) assert.ok(entry.webhooks.length > 0, kind);
    }
  });
});
