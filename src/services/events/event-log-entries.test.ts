/**
 * The event log's rendering of a payout: a tx paying 5,000 addresses makes 5,000 address events. Each used to embed
 * the tx's 5,000-output summary (25 million output descriptions, gigabytes of rows: `outpoint serve` ran out of memory
 * on a block with such a tx); now the summary is built once and logged once as a shared body they point to.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getNetworkParams } from '../../chains/networks.js';
import type { AddressTouchedEvent } from '../../core/domain/events.js';
import type { NetworkId } from '../../core/domain/network.js';
import { EventLogEntries } from './event-log-entries.js';
import { payoutTx } from '../../../test/helpers/payout-tx.js';

const BTC = getNetworkParams('BTCTEST', 'regtest');
const OUTPUTS = 5_000;

describe('EventLogEntries and a payout to 5,000 addresses', () => {
  it('in the mempool: logs the tx summary once, shared; each address event is a few hundred bytes pointing to it', () => {
    const tx = payoutTx(OUTPUTS);
    assert.equal(tx.outputs.length, OUTPUTS);
    const entries = new EventLogEntries(new Map([['BTCTEST' as NetworkId, BTC]]));
    const prevouts = [null];
    let addressBytes = 0;
    const bodies = new Set<string>();
    const started = performance.now();
    for (const output of tx.outputs) {
      const event: AddressTouchedEvent = {
        kind: 'address_touched', network: 'BTCTEST' as NetworkId, txid: tx.txid, tx, confirmed: false, prevouts,
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

  it('in a block: logs each address event with the txid only (the feed rebuilds the summary from the index)', () => {
    const tx = payoutTx(OUTPUTS);
    const entries = new EventLogEntries(new Map([['BTCTEST' as NetworkId, BTC]]));
    const started = performance.now();
    for (const output of tx.outputs) {
      const rendered = entries.render({
        kind: 'address_touched', network: 'BTCTEST' as NetworkId, txid: tx.txid, tx, confirmed: true, prevouts: [null],
        delta: { script: output.script, txid: tx.txid, received: output.value, sent: 0n },
      })!;
      assert.equal(rendered.entries.length, 1, 'no shared body');
      assert.deepEqual(JSON.parse(rendered.entries[0]!.payload), {
        type: 'address', value: { value_sent: '0.00000000', value_received: '0.00001000', balance_change: '0.00001000', tx: { $txid: tx.txid } },
      });
    }
    const ms = performance.now() - started;
    assert.ok(ms < 1_000, `${ms.toFixed(0)} ms to render`);
  });
});
