/**
 * The node as the oracle for index contents: its UTXO set (scantxoutset) per address, its mempool, and its main
 * chain read block by block (for histories), in exact base units (amounts parsed from the JSON text, never through
 * floats).
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
  readonly vout: readonly { n: number; value?: string | number; scriptPubKey?: { address?: string; addresses?: string[] } }[];
}

/** Core 22+ names one `address`; Litecoin Core 0.21 a list `addresses`; MWEB outputs have neither (confidential). */
function addressOf(out: VerboseTx['vout'][number]): string | undefined {
  return out.scriptPubKey?.address ?? out.scriptPubKey?.addresses?.[0];
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

interface OracleCheck {
  readonly node: RegtestNode;
  readonly params: NetworkParams;
  readonly store: NetworkStore;
  readonly addresses: readonly string[];
  readonly label: string;
}

/** Each address's totals, unspent outputs and history equal the node's view (the two checks below). */
export async function assertAddressesMatchNode(
  node: RegtestNode,
  params: NetworkParams,
  store: NetworkStore,
  addresses: readonly string[],
  label: string,
): Promise<void> {
  const check: OracleCheck = { node, params, store, addresses, label };
  await assertBalancesAndUnspent(check);
  await assertHistories(check);
}

/**
 * Each address's confirmed balance and UTXO list equal the node's UTXO set (minus what its mempool spends), and its
 * unconfirmed received/sent/tx count and mempool-inclusive UTXO list equal what the node's mempool does to it.
 */
async function assertBalancesAndUnspent({ node, params, store, addresses, label }: OracleCheck): Promise<void> {
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

interface VerboseBlockTx extends VerboseTx {
  readonly txid: string;
}

/** Main-chain blocks by hash, per node: a hash names one block's contents forever, so checks share them. */
const blockCache = new Map<string, readonly VerboseBlockTx[]>();

/**
 * Each address's history (every confirmed and mempool tx funding or spending it, with the amounts in and out, in
 * chain order then the mempool) equals what the node's main chain and mempool say, read block by block.
 */
async function assertHistories({ node, params, store, addresses, label }: OracleCheck): Promise<void> {
  const watched = new Set(addresses);
  const height = await node.rpc.call<number>('getblockcount');
  const outputs = new Map<string, { address: string | undefined; value: bigint }>();
  interface Expected { txid: string; height: number | null; position: number | null; received: bigint; sent: bigint }
  const expected = new Map<string, Expected[]>(addresses.map((a) => [a, []]));
  const visit = (tx: VerboseBlockTx, at: number | null, position: number | null): void => {
    const perAddress = new Map<string, { received: bigint; sent: bigint }>();
    const touch = (address: string) => perAddress.get(address) ?? perAddress.set(address, { received: 0n, sent: 0n }).get(address)!;
    for (const input of tx.vin) {
      const prev = input.txid === undefined ? undefined : outputs.get(`${input.txid}:${input.vout}`);
      if (prev?.address !== undefined && watched.has(prev.address)) touch(prev.address).sent += prev.value;
    }
    for (const out of tx.vout) {
      if (out.value === undefined) continue; // a Litecoin MWEB output: confidential, no value
      const address = addressOf(out);
      const value = parseCoins(String(out.value));
      outputs.set(`${tx.txid}:${out.n}`, { address, value });
      if (address !== undefined && watched.has(address)) touch(address).received += value;
    }
    for (const [address, { received, sent }] of perAddress) expected.get(address)!.push({ txid: tx.txid, height: at, position, received, sent });
  };
  for (let h = 0; h <= height; h++) {
    const hash = await node.rpc.call<string>('getblockhash', [h]);
    const key = `${node.rpcUrl} ${hash}`;
    let txs = blockCache.get(key);
    if (!txs) {
      txs = (await node.rpc.call<{ tx: VerboseBlockTx[] }>('getblock', [hash, 2], { exactDecimals: true })).tx;
      blockCache.set(key, txs);
    }
    txs.forEach((tx, position) => visit(tx, h, position));
  }
  // Mempool txs in an order where parents come first, so their outputs are known when children spend them.
  const entries = await node.rpc.call<Record<string, { depends: string[] }>>('getrawmempool', [true]);
  const done = new Set<string>();
  const visitMempool = async (txid: string): Promise<void> => {
    if (done.has(txid)) return;
    done.add(txid);
    for (const parent of entries[txid]?.depends ?? []) await visitMempool(parent);
    visit({ txid, ...(await node.rpc.call<VerboseTx>('getrawtransaction', [txid, true], { exactDecimals: true })) }, null, null);
  };
  for (const txid of Object.keys(entries).sort()) await visitMempool(txid);
  for (const address of addresses) {
    const history = await store.getAddressHistory(addressToScript(params, address), { limit: 100_000, direction: 'asc' });
    const ours = history.map((e) => ({ txid: e.txid, height: e.height, position: e.position, received: e.received, sent: e.sent }));
    const theirs = expected.get(address)!;
    // Chain order is exact; the mempool part is compared as a set (ours orders it by first-seen time).
    const confirmed = (xs: Expected[]) => xs.filter((x) => x.height !== null);
    const pending = (xs: Expected[]) => xs.filter((x) => x.height === null).sort((a, b) => (a.txid < b.txid ? -1 : 1));
    assert.deepEqual(confirmed(ours), confirmed(theirs), `${label}: confirmed history of ${address}`);
    assert.deepEqual(pending(ours), pending(theirs), `${label}: mempool history of ${address}`);
  }
}
