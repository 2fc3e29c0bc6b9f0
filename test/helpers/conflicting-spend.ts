import assert from 'node:assert/strict';
import { formatCoins, parseCoins } from '../../src/core/index.js';
import type { RegtestNode } from './regtest-node.js';

/**
 * A wallet-signed spend of the tx's first input to a fresh address, not broadcast: a double spend of it (Litecoin
 * Core has no replace-by-fee, so tests deliver it in a block, as another miner would).
 */
export async function conflictingSpend(node: RegtestNode, txid: string): Promise<{ txid: string; hex: string }> {
  const decoded = await node.rpc.call<{ vin: { txid: string; vout: number }[] }>('getrawtransaction', [txid, true]);
  const input = decoded.vin[0]!;
  const prev = await node.rpc.call<{ vout: { value: string; n: number }[] }>('getrawtransaction', [input.txid, true], { exactDecimals: true });
  const value = parseCoins(String(prev.vout[input.vout]!.value));
  const outputs = { [await node.newAddress('bech32')]: formatCoins(value - 1_000_000n) };
  const raw = await node.wallet.call<string>('createrawtransaction', [[{ txid: input.txid, vout: input.vout }], outputs]);
  const signed = await node.wallet.call<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', [raw]);
  assert.ok(signed.complete, 'conflicting spend signed');
  const { txid: conflictTxid } = await node.rpc.call<{ txid: string }>('decoderawtransaction', [signed.hex]);
  return { txid: conflictTxid, hex: signed.hex };
}
