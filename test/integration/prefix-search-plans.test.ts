/**
 * Search suggestions read txid and block-hash prefixes by index range scans, never table scans, on both engines:
 * the query plans of the three prefix statements (chain-read-plans.ts `hashPrefix`) name an index. PostgreSQL is
 * told to avoid sequential scans (a tiny test table would be scanned anyway); it still plans one when no index fits,
 * which is what this test would catch.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { ChainReadPlans } from '../../src/store/common/chain-reads/chain-read-plans.js';
import { chainTables } from '../../src/store/common/schema/chain-tables.js';
import { POSTGRES_DIALECT, SQLITE_DIALECT } from '../../src/store/common/sql/sql-dialect.js';
import { numbered } from '../../src/store/common/sql/sql-runner.js';
import { openSqliteDatabase } from '../../src/store/sqlite/connection/sqlite-binding.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';

const engines = new StoreEngines();
after(() => engines.close());

const lo = Buffer.from('abcd'.padEnd(64, '0'), 'hex');
const hi = Buffer.from('abcd'.padEnd(64, 'f'), 'hex');
const STATEMENTS = [
  ['txidPrefix', [lo.subarray(0, 8), hi.subarray(0, 8), 16]],
  ['mempoolTxidPrefix', [lo, hi, 8]],
  ['blockHashPrefix', [lo, hi, 8]],
] as const;

describe('prefix search plans', () => {
  for (const engine of testEngines()) {
    it(`${engine}: every prefix statement is an index range`, async () => {
      const store = await engines.create(engine);
      const tables = chainTables('LTCTEST');
      if (engine === 'sqlite') {
        const sql = new ChainReadPlans(tables, SQLITE_DIALECT).sql;
        const db = openSqliteDatabase(store.url.slice('sqlite:'.length), { readonly: true });
        try {
          for (const [name, params] of STATEMENTS) {
            const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql[name]}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('; ');
            assert.match(plan, /SEARCH .* USING (INDEX|PRIMARY KEY|COVERING INDEX)/, `${name}: ${plan}`);
            assert.doesNotMatch(plan, /\bSCAN\b/, `${name}: ${plan}`);
          }
        } finally {
          db.close();
        }
        return;
      }
      const sql = new ChainReadPlans(tables, POSTGRES_DIALECT).sql;
      const client = new pg.Client({ connectionString: store.url });
      await client.connect();
      try {
        await client.query('SET enable_seqscan = off');
        for (const [name, params] of STATEMENTS) {
          const plan = (await client.query(`EXPLAIN ${numbered(sql[name])}`, [...params])).rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('; ');
          assert.match(plan, /Index (Only )?Scan|Bitmap Index Scan/, `${name}: ${plan}`);
          assert.doesNotMatch(plan, /Seq Scan/, `${name}: ${plan}`);
        }
      } finally {
        await client.end();
      }
    });
  }
});
