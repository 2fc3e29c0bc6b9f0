import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { AddressTouchedEvent, DomainEvent, TxAcceptedEvent } from '../core/index.js';
import { getNetworkParams } from '../chains/addressing.js';
import { parseBlock } from '../chains/parsing.js';
import { decodeEvent, decodeEventBatch, encodeEvent, encodeEventBatches } from './event-codec.js';
import { payoutTx } from '../../test/helpers/payout-tx.js';
import { toHex } from '../chains/hash.js';

function fixtureBlock(name: string, network: 'LTCTEST' | 'DOGE') {
  const { hex } = JSON.parse(readFileSync(new URL(`../../test/fixtures/blocks/${name}.json`, import.meta.url), 'utf8')) as { hex: string };
  return parseBlock(Buffer.from(hex, 'hex'), getNetworkParams(network).features);
}

describe('event codec (Redis wire form)', () => {
  it('round-trips transactions (MWEB block), bigint amounts and script bytes', () => {
    const block = fixtureBlock('LTCTEST-2215586', 'LTCTEST');
    for (const tx of block.txs) {
      const delta = { script: tx.outputs[0]!.script, txid: tx.txid, received: 2n ** 70n, sent: 1n };
      const events: (AddressTouchedEvent | TxAcceptedEvent)[] = [
        { kind: 'address_touched', network: 'LTCTEST', txid: tx.txid, tx, delta, confirmed: true, prevouts: [null, { txid: tx.txid, vout: 1, value: 2n ** 63n + 5n, script: delta.script }] },
        { kind: 'tx_accepted', network: 'LTCTEST', tx, seenAt: 1700000000, inputValue: null, deltas: [delta], mempoolSize: 3, prevouts: null },
      ];
      for (const event of events) {
        // The single-event form of earlier versions and the batch form the bus sends.
        for (const back of [decodeEvent(encodeEvent(event)), ...decodeEventBatch(encodeEventBatches([event])[0]!)] as (AddressTouchedEvent | TxAcceptedEvent)[]) {
          assert.equal(back.tx.txid, tx.txid);
          assert.equal(back.tx.wtxid, tx.wtxid);
          assert.equal(toHex(back.tx.raw), toHex(tx.raw));
          assert.equal(back.tx.outputs.length, tx.outputs.length);
          const backDelta = back.kind === 'address_touched' ? back.delta : back.deltas[0]!;
          assert.equal(backDelta.received, 2n ** 70n);
          assert.equal(toHex(backDelta.script), toHex(delta.script));
        }
      }
    }
  });

  it('round-trips block and price events unchanged', () => {
    const block: DomainEvent = {
      kind: 'block_connected', network: 'DOGE', height: 1, hash: 'aa', prevHash: 'bb', merkleRoot: 'cc', time: 1, bits: 0x1d00ffff,
      size: 200, txCount: 1, minerAddress: 'DHE6HfE8Ckv9e4AhUcJV8JTgxAw4mCmYVH', minerTag: '/pool/', receivedAt: 2,
    };
    assert.deepEqual(decodeEvent(encodeEvent(block)), block);
    assert.deepEqual(decodeEventBatch(encodeEventBatches([block])[0]!), [block]);
    const price: DomainEvent = { kind: 'price', coin: 'BTC', base: 'USD', exchange: 'kraken', price: '65000.10', time: 3 };
    assert.deepEqual(decodeEvent(encodeEvent(price)), price);
    assert.deepEqual(decodeEventBatch(encodeEventBatches([price])[0]!), [price]);
  });

  it('round-trips wallet events (issue 50): bigint sides, address scripts, a double spend', () => {
    // Decoded bytes are Buffers (a Uint8Array): the expectation is one too.
    const script = Buffer.from([0, 0x14, ...new Uint8Array(20).fill(9)]);
    const addresses = [{ script, address: 'bcrt1q…', path: '0/7', received: 2n ** 64n, sent: 3n }];
    const events: DomainEvent[] = [
      { kind: 'wallet_touched', network: 'BTCTEST', wallet: 'k3n7wq2x', txid: 'ab'.repeat(32), confirmed: false, received: 2n ** 64n, sent: 3n, addresses, time: 5 },
      {
        kind: 'wallet_touched', network: 'BTCTEST', wallet: 'k3n7wq2x', txid: 'cd'.repeat(32), confirmed: false, received: 0n, sent: 0n, addresses, time: 6,
        doubleSpend: { conflictingTxids: ['ef'.repeat(32)], reason: 'replaced', seenIn: 'mempool' },
      },
    ];
    assert.deepEqual(events.map((e) => decodeEvent(encodeEvent(e))), events);
    assert.deepEqual(decodeEventBatch(encodeEventBatches(events)[0]!), events);
  });
});

describe('event batches (Redis wire form of a payout)', () => {
  const tx = payoutTx(5_000);
  const prevouts = [{ txid: 'ab'.repeat(32), vout: 3, value: 5_000_000n, script: tx.outputs[0]!.script }];
  const events: DomainEvent[] = [
    { kind: 'tx_accepted', network: 'BTCTEST', tx, seenAt: 1, inputValue: 5_000_000n, deltas: [], mempoolSize: 1, prevouts },
    ...tx.outputs.map((output): AddressTouchedEvent => ({
      kind: 'address_touched', network: 'BTCTEST', txid: tx.txid, tx, confirmed: false, prevouts,
      delta: { script: output.script, txid: tx.txid, received: output.value, sent: 0n },
    })),
    { kind: 'price', coin: 'BTC', base: 'USD', exchange: 'kraken', price: '1.5', time: 2 },
  ];

  it('carries a 5,000-output tx once per batch, not once per address, and decodes it once', () => {
    const rawChars = tx.raw.length * 2;
    const messages = encodeEventBatches(events);
    const chars = messages.reduce((sum, m) => sum + m.length, 0);
    // Encoded one by one, the 5,001 events carry the ~160 KB tx 5,001 times (~1.6 GB).
    assert.ok(chars < 4 * rawChars + events.length * 300, `${chars} chars for ${events.length} events of a ${tx.raw.length} B tx`);
    const back = messages.flatMap((m) => decodeEventBatch(m));
    assert.equal(back.length, events.length);
    assert.deepEqual(back.map((e) => e.kind), events.map((e) => e.kind));
    const touched = back.filter((e): e is AddressTouchedEvent => e.kind === 'address_touched');
    assert.equal(touched[4_321]!.tx.txid, tx.txid);
    assert.equal(toHex(touched[4_321]!.delta.script), toHex(tx.outputs[4_321]!.script));
    assert.equal(touched[4_321]!.prevouts![0]!.value, 5_000_000n);
    // Within a batch the events share one decoded tx and one prevouts array, as the publisher's did.
    const firstBatch = decodeEventBatch(messages[0]!).filter((e): e is AddressTouchedEvent => e.kind === 'address_touched');
    assert.ok(firstBatch.length > 1);
    assert.ok(firstBatch.every((e) => e.tx === firstBatch[0]!.tx && e.prevouts === firstBatch[0]!.prevouts));
  });

  it('closes a batch past its size bound without splitting an event, and keeps the order', () => {
    const messages = encodeEventBatches(events, 50_000);
    assert.ok(messages.length > 1, `${messages.length} batches`);
    const back = messages.flatMap((m) => decodeEventBatch(m));
    assert.deepEqual(back.map((e) => (e.kind === 'address_touched' ? toHex(e.delta.script) : e.kind)),
      events.map((e) => (e.kind === 'address_touched' ? toHex(e.delta.script) : e.kind)));
  });

  it('accepts a single event (what an earlier version publishes) and refuses references out of range', () => {
    const price = events[events.length - 1]!;
    assert.deepEqual(decodeEventBatch(encodeEvent(price)), [price]);
    const touched = encodeEventBatches([events[1]!])[0]!;
    assert.throws(() => decodeEventBatch(touched.replace('"shared":[', '"shared":[],"was":[')), SyntaxError);
    assert.throws(() => decodeEventBatch('{"shared":[],"events":[{"nokind":1}]}'), SyntaxError);
  });
});
