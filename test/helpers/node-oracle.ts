/**
 * The node as the oracle for index contents: its UTXO set (scantxoutset) per address and its
 * mempool, in exact base units (amounts parsed from the JSON text, never through floats).
 */
import assert from 'node:assert/strict';
import type { NetworkStore } from '../../src/core/index.js';
import { parseCoins } from '../../src/core/index.js';
import type { NetworkParams } from '../../src/chains/network-params.js';
import { addressToScript } from '../../src/chains/addressing.js';
import type { RegtestNode } from './regtest-node.js';

interface ScanResult {
  readonly unspents: readonly { txid: string; vout: number; amount: string; height: number }[];
  readonly total_amount: string;
}

/** The confirmed UTXOs of an address according to the node. */
export async function nodeUtxos(node: RegtestNode, address: string): Promise<{ total: bigint; outpoints: string[] }> {
  const scan = await node.rpc.call<ScanResult>('scantxoutset', ['start', [`addr(${address})`]], { exactDecimals: true });
  const outpoints = scan.unspents.map((u) => `${u.txid}:${u.vout}`).sort();
  return { total: parseCoins(String(scan.total_amount)), outpoints };
}

/** Outpoints the node's mempool txs spend (`txid:vout`). */
async function mempoolSpentOutpoints(node: RegtestNode): Promise<Set<string>> {
  const spent = new Set<string>();
  for (const txid of await node.rpc.call<string[]>('getrawmempool')) {
    const tx = await node.rpc.call<{ vin: { txid?: string; vout?: number }[] }>('getrawtransaction', [txid, true]);
    for (const input of tx.vin) if (input.txid !== undefined) spent.add(`${input.txid}:${input.vout}`);
  }
  return spent;
}

/** Confirmed balance and UTXO list of each address equal the node's UTXO set (minus what its mempool spends). */
export async function assertAddressesMatchNode(
  node: RegtestNode,
  params: NetworkParams,
  store: NetworkStore,
  addresses: readonly string[],
  label: string,
): Promise<void> {
  // Our unspent listing leaves out outputs a mempool tx spends; the node's UTXO set (scantxoutset) still has them.
  const spentInMempool = await mempoolSpentOutpoints(node);
  for (const address of addresses) {
    const script = addressToScript(params, address);
    const expected = await nodeUtxos(node, address);
    const totals = await store.getAddressTotals(script);
    assert.equal(totals.confirmedBalance, expected.total, `${label}: confirmed balance of ${address}`);
    assert.equal(totals.confirmedReceived - totals.confirmedSent, totals.confirmedBalance, `${label}: received - sent of ${address}`);
    const unspent = await store.getUnspent(script, { limit: 10_000, includeMempool: false });
    assert.deepEqual(
      unspent.map((u) => `${u.txid}:${u.vout}`).sort(),
      expected.outpoints.filter((o) => !spentInMempool.has(o)),
      `${label}: unspent outputs of ${address}`,
    );
  }
}

/** The store's tip and mempool equal the node's. */
export async function assertTipAndMempoolMatchNode(node: RegtestNode, store: NetworkStore, label: string): Promise<void> {
  const [best, height, mempool] = await Promise.all([
    node.rpc.call<string>('getbestblockhash'),
    node.rpc.call<number>('getblockcount'),
    node.rpc.call<string[]>('getrawmempool'),
  ]);
  assert.deepEqual(await store.getTip(), { height, hash: best }, `${label}: tip`);
  assert.deepEqual((await store.getMempoolTxids()).sort(), [...mempool].sort(), `${label}: mempool`);
}
