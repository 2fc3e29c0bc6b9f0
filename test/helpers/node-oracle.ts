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

interface VerboseTx {
  readonly vin: readonly { txid?: string; vout?: number }[];
  /** Litecoin lists MWEB outputs here too, without a scriptPubKey. */
  readonly vout: readonly { n: number; value: string | number; scriptPubKey?: { address?: string; addresses?: string[] } }[];
}

/** What the node's mempool does to one address: its unconfirmed figures and outputs, in exact base units. */
interface MempoolEffect {
  received: bigint;
  sent: bigint;
  readonly txids: Set<string>;
  readonly outputs: string[];
}

interface NodeMempool {
  /** Outpoints the node's mempool txs spend (`txid:vout`). */
  readonly spent: Set<string>;
  readonly byAddress: Map<string, MempoolEffect>;
}

/** The node's mempool read tx by tx (with -txindex every prevout resolves), amounts parsed exactly. */
async function nodeMempool(node: RegtestNode): Promise<NodeMempool> {
  const cache = new Map<string, VerboseTx>();
  const tx = async (txid: string): Promise<VerboseTx> => {
    let found = cache.get(txid);
    if (!found) {
      found = await node.rpc.call<VerboseTx>('getrawtransaction', [txid, true], { exactDecimals: true });
      cache.set(txid, found);
    }
    return found;
  };
  // Core 22+ names one `address`; Litecoin Core 0.21 a list `addresses`; MWEB outputs have neither (confidential).
  const addressOf = (out: VerboseTx['vout'][number]): string | undefined => out.scriptPubKey?.address ?? out.scriptPubKey?.addresses?.[0];
  const spent = new Set<string>();
  const byAddress = new Map<string, MempoolEffect>();
  const effect = (address: string): MempoolEffect => {
    let e = byAddress.get(address);
    if (!e) byAddress.set(address, (e = { received: 0n, sent: 0n, txids: new Set(), outputs: [] }));
    return e;
  };
  for (const txid of await node.rpc.call<string[]>('getrawmempool')) {
    const t = await tx(txid);
    for (const input of t.vin) {
      if (input.txid === undefined) continue;
      spent.add(`${input.txid}:${input.vout}`);
      // Litecoin MWEB inputs spend confidential outputs, which no transparent vout lists: nothing to attribute.
      const prev = (await tx(input.txid)).vout.find((o) => o.n === input.vout);
      const address = prev && addressOf(prev);
      if (prev === undefined || address === undefined) continue;
      const e = effect(address);
      e.sent += parseCoins(String(prev.value));
      e.txids.add(txid);
    }
    for (const out of t.vout) {
      const address = addressOf(out);
      if (address === undefined) continue;
      const e = effect(address);
      e.received += parseCoins(String(out.value));
      e.txids.add(txid);
      e.outputs.push(`${txid}:${out.n}`);
    }
  }
  return { spent, byAddress };
}

/**
 * Each address's confirmed balance and UTXO list equal the node's UTXO set (minus what its mempool spends), and its
 * unconfirmed received/sent/tx count and mempool-inclusive UTXO list equal what the node's mempool does to it.
 */
export async function assertAddressesMatchNode(
  node: RegtestNode,
  params: NetworkParams,
  store: NetworkStore,
  addresses: readonly string[],
  label: string,
): Promise<void> {
  // Our unspent listing leaves out outputs a mempool tx spends; the node's UTXO set (scantxoutset) still has them.
  const mempool = await nodeMempool(node);
  for (const address of addresses) {
    const script = addressToScript(params, address);
    const expected = await nodeUtxos(node, address);
    const totals = await store.getAddressTotals(script);
    assert.equal(totals.confirmedBalance, expected.total, `${label}: confirmed balance of ${address}`);
    assert.equal(totals.confirmedReceived - totals.confirmedSent, totals.confirmedBalance, `${label}: received - sent of ${address}`);
    const unspent = await store.getUnspent(script, { limit: 10_000, includeMempool: false });
    const confirmedUnspent = expected.outpoints.filter((o) => !mempool.spent.has(o));
    assert.deepEqual(unspent.map((u) => `${u.txid}:${u.vout}`).sort(), confirmedUnspent, `${label}: unspent outputs of ${address}`);
    const effect = mempool.byAddress.get(address) ?? { received: 0n, sent: 0n, txids: new Set<string>(), outputs: [] };
    assert.deepEqual(
      { received: totals.unconfirmedReceived, sent: totals.unconfirmedSent, txs: totals.unconfirmedTxCount },
      { received: effect.received, sent: effect.sent, txs: effect.txids.size },
      `${label}: unconfirmed totals of ${address}`,
    );
    const withMempool = await store.getUnspent(script, { limit: 10_000, includeMempool: true });
    assert.deepEqual(
      withMempool.map((u) => `${u.txid}:${u.vout}`).sort(),
      [...confirmedUnspent, ...effect.outputs.filter((o) => !mempool.spent.has(o))].sort(),
      `${label}: unspent outputs of ${address} with the mempool`,
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
