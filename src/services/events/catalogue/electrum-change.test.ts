import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DomainEvent } from '../../../core/domain/events.js';
import { kindOf } from './event-catalogue.js';

const a = Uint8Array.of(0x51);
const b = Uint8Array.of(0x52);
/** Only the fields the `electrum` entries read. */
const event = (e: Record<string, unknown>): DomainEvent => e as unknown as DomainEvent;

describe('the event catalogue for the Electrum server', () => {
  it('names what each kind of event changes for subscriptions', () => {
    const cases: [DomainEvent, unknown][] = [
      [event({ kind: 'block_connected', network: 'BTC', height: 7, hash: 'ab' }), { kind: 'block', network: 'BTC', height: 7, hash: 'ab' }],
      [event({ kind: 'block_disconnected', network: 'BTC', height: 7, hash: 'ab' }), { kind: 'reorg', network: 'BTC', height: 7 }],
      [event({ kind: 'tx_accepted', network: 'LTC', deltas: [{ script: a }, { script: b }] }), { kind: 'scripts', network: 'LTC', scripts: [a, b] }],
      [event({ kind: 'tx_removed', network: 'LTC', txid: 'cd', reason: 'replaced' }), { kind: 'tx-gone', network: 'LTC', txid: 'cd' }],
      [event({ kind: 'address_touched', network: 'DOGE', delta: { script: b }, confirmed: true }), { kind: 'scripts', network: 'DOGE', scripts: [b] }],
      [event({ kind: 'double_spend', network: 'BTC', scripts: [a] }), { kind: 'scripts', network: 'BTC', scripts: [a] }],
      [event({ kind: 'price', coin: 'BTC', base: 'USD' }), undefined],
    ];
    for (const [e, expected] of cases) assert.deepEqual(kindOf(e).electrum?.(e) ?? undefined, expected, e.kind);
  });
});
