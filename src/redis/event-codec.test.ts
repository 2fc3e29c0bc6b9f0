import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { AddressTouchedEvent, DomainEvent, TxAcceptedEvent } from '../core/index.js';
import { getNetworkParams } from '../chains/addressing.js';
import { parseBlock } from '../chains/parsing.js';
import { decodeEvent, encodeEvent } from './event-codec.js';
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
        const back = decodeEvent(encodeEvent(event)) as AddressTouchedEvent | TxAcceptedEvent;
        assert.equal(back.tx.txid, tx.txid);
        assert.equal(back.tx.wtxid, tx.wtxid);
        assert.equal(toHex(back.tx.raw), toHex(tx.raw));
        assert.equal(back.tx.outputs.length, tx.outputs.length);
        const backDelta = back.kind === 'address_touched' ? back.delta : back.deltas[0]!;
        assert.equal(backDelta.received, 2n ** 70n);
        assert.equal(toHex(backDelta.script), toHex(delta.script));
      }
    }
  });

  it('round-trips block and price events unchanged', () => {
    const block: DomainEvent = {
      kind: 'block_connected', network: 'DOGE', height: 1, hash: 'aa', prevHash: 'bb', merkleRoot: 'cc', time: 1, bits: 0x1d00ffff,
      size: 200, txCount: 1, minerAddress: 'DHE6HfE8Ckv9e4AhUcJV8JTgxAw4mCmYVH', minerTag: '/pool/', receivedAt: 2,
    };
    assert.deepEqual(decodeEvent(encodeEvent(block)), block);
    const price: DomainEvent = { kind: 'price', coin: 'BTC', base: 'USD', exchange: 'kraken', price: '65000.10', time: 3 };
    assert.deepEqual(decodeEvent(encodeEvent(price)), price);
  });
});
