/**
 * The event log's rendering of a payout: a tx paying 5,000 addresses makes 5,000 address events. Each used to embed
 * the tx's 5,000-output summary (25 million output descriptions, gigabytes of rows: `outpoint serve` ran out of memory
 * on a block with such a tx); now the summary is built once and logged once as a shared body they point to.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getNetworkParams } from '../../chains/networks.js';
import { parseTransaction } from '../../chains/parsing.js';
import type { AddressTouchedEvent } from '../../core/domain/events.js';
import type { NetworkId } from '../../core/domain/network.js';
import { EventLogEntries } from './event-log-entries.js';

const BTC = getNetworkParams('BTCTEST', 'regtest');
const OUTPUTS = 5_000;

/** A version-1 tx spending one outpoint into OUTPUTS P2WPKH outputs of 1,000 sats each, each to its own key hash. */
function payout(): ReturnType<typeof parseTransaction> {
  const parts: Buffer[] = [Buffer.from([1, 0, 0, 0, 1]), Buffer.alloc(32, 7), Buffer.from([0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff])];
  parts.push(Buffer.from([0xfd, OUTPUTS & 0xff, OUTPUTS >> 8]));
  for (let i = 0; i < OUTPUTS; i++) {
    const value = Buffer.alloc(8);
    value.writeBigUInt64LE(1_000n);
    const hash = Buffer.alloc(20);
    hash.writeUInt32BE(i + 1);
    parts.push(value, Buffer.from([22, 0x00, 0x14]), hash);
  }
  parts.push(Buffer.alloc(4));
  return parseTransaction(Buffer.concat(parts));
}

describe('EventLogEntries and a payout to 5,000 addresses', () => {
  it('logs the tx summary once, shared; each address event is a few hundred bytes pointing to it', () => {
    const tx = payout();
    assert.equal(tx.outputs.length, OUTPUTS);
    const entries = new EventLogEntries(new Map([['BTCTEST' as NetworkId, BTC]]));
    const prevouts = [null];
    let addressBytes = 0;
    const bodies = new Set<string>();
    const started = performance.now();
    for (const output of tx.outputs) {
      const event: AddressTouchedEvent = {
        kind: 'address_touched', network: 'BTCTEST' as NetworkId, txid: tx.txid, tx, confirmed: true, prevouts,
        delta: { script: output.script, txid: tx.txid, received: output.value, sent: 0n },
      };
      const rendered = entries.render(event)!;
      const [address, body] = rendered.entries;
      assert.equal(address!.event, 'balance_update');
      assert.deepEqual(JSON.parse(address!.payload).value.tx, { $ref: `tx:${tx.txid}` });
      addressBytes += address!.payload.length;
      assert.equal(body!.shared, true);
      bodies.add(body!.payload);
    }
    const ms = performance.now() - started;
    assert.equal(bodies.size, 1, 'one summary text for the whole tx');
    const summary = JSON.parse([...bodies][0]!) as { txid: string; outputs: unknown[] };
    assert.equal(summary.outputs.length, OUTPUTS);
    assert.ok(addressBytes < OUTPUTS * 200, `${addressBytes} bytes of address payloads`);
    // Rebuilding the summary per event took minutes and gigabytes; built once it is a fraction of a second.
    assert.ok(ms < 5_000, `${ms.toFixed(0)} ms to render`);
  });
});
