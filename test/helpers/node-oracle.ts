/**
 * The node as the oracle for index contents: its UTXO set (scantxoutset) per address, its mempool, and its main
 * chain read block by block (for histories), in exact base units (amounts parsed from the JSON text, never through
 * floats).
 */
import assert from 'node:assert/strict';
import { type NetworkStore, parseCoins } from '../../src/core/index.js';
import type { NetworkParams } from '../../src/chains/network-params.js';
import { addressToScript } from '../../src/chains/addressing.js';
import type { RpcClient } from '../../src/node/rpc/rpc-client.js';

/** What the oracle reads a node through: RPC, and the node's UTXO set where it has no scantxoutset (Dogecoin Core 1.14). */
export interface OracleNode {
  readonly rpc: RpcClient;
  readonly rpcUrl: string;
  confirmedUtxos?(address: string): Promise<{ total: bigint; outpoints: string[] }>;
}

interface ScanResult {
  readonly unspents: readonly { txid: string; vout: number; amount: string; height: number }[];
  readonly total_amount: string;
}

/** The confirmed UTXOs of an address according to the node. */
export async function nodeUtxos(node: OracleNode, address: string): Promise<{ total: bigint; outpoints: string[] }> {
  if (node.confirmedUtxos) return node.confirmedUtxos(address);
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

interface VerboseBlockTx extends VerboseTx {
  readonly txid: string;
}

/** One tx in an address's history as the node sees it (height and position null in the mempool). */
interface HistoryItem {
  readonly txid: string;
  readonly height: number | null;
  readonly position: number | null;
  received: bigint;
  sent: bigint;
}

/** What the node says about the watched addresses, read once per check. */
interface NodeView {
  /** Per address: every tx funding or spending it, main chain in order, then the mempool (parents first). */
  readonly history: Map<string, HistoryItem[]>;
  /** Outpoints the node's mempool txs spend (`txid:vout`). */
  readonly mempoolSpent: Set<string>;
  /** Per address: the outpoints mempool txs pay it. */
  readonly mempoolOutputs: Map<string, string[]>;
}

/** Main-chain blocks by hash, per node: a hash names one block's contents forever, so checks share them. */
const blockCache = new Map<string, readonly VerboseBlockTx[]>();

/** The node's main chain read block by block, then its mempool tx by tx, amounts parsed exactly. */
async function readNodeView(node: OracleNode, addresses: readonly string[]): Promise<NodeView> {
  const view: NodeView = {
    history: new Map(addresses.map((a) => [a, []])),
    mempoolSpent: new Set(),
    mempoolOutputs: new Map(addresses.map((a) => [a, []])),
  };
  const outputs = new Map<string, { address: string | undefined; value: bigint }>();
  const visit = (tx: VerboseBlockTx, height: number | null, position: number | null): void => {
    const items = new Map<string, HistoryItem>();
    const item = (address: string): HistoryItem => {
      let found = items.get(address);
      if (!found) items.set(address, (found = { txid: tx.txid, height, position, received: 0n, sent: 0n }));
      return found;
    };
    for (const input of tx.vin) {
      if (input.txid === undefined) continue;
      if (height === null) view.mempoolSpent.add(`${input.txid}:${input.vout}`);
      // Litecoin MWEB inputs spend confidential outputs, which no transparent vout lists: nothing to attribute.
      const prev = outputs.get(`${input.txid}:${input.vout}`);
      if (prev?.address !== undefined && view.history.has(prev.address)) item(prev.address).sent += prev.value;
    }
    for (const out of tx.vout) {
      if (out.value === undefined) continue; // a Litecoin MWEB output: confidential, no value
      const address = addressOf(out);
      const value = parseCoins(String(out.value));
      outputs.set(`${tx.txid}:${out.n}`, { address, value });
      if (address === undefined || !view.history.has(address)) continue;
      item(address).received += value;
      if (height === null) view.mempoolOutputs.get(address)!.push(`${tx.txid}:${out.n}`);
    }
    for (const [address, found] of items) view.history.get(address)!.push(found);
  };
  const height = await node.rpc.call<number>('getblockcount');
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
  return view;
}

/**
 * Each address equals the node's view: confirmed balance and UTXO list equal its UTXO set (minus what its mempool
 * spends: our unspent listing leaves those out, scantxoutset still has them); unconfirmed received/sent/tx count
 * and the mempool-inclusive UTXO list equal what its mempool does to the address; and the history (every confirmed
 * and mempool tx funding or spending it, amounts in and out, chain order then the mempool) equals its main chain
 * and mempool read block by block.
 */
export async function assertAddressesMatchNode(
  node: OracleNode,
  params: NetworkParams,
  store: NetworkStore,
  addresses: readonly string[],
  label: string,
): Promise<void> {
  const view = await readNodeView(node, addresses);
  for (const address of addresses) {
    const script = addressToScript(params, address);
    const expected = await nodeUtxos(node, address);
    const totals = await store.getAddressTotals(script);
    assert.equal(totals.confirmedBalance, expected.total, `${label}: confirmed balance of ${address}`);
    assert.equal(totals.confirmedReceived - totals.confirmedSent, totals.confirmedBalance, `${label}: received - sent of ${address}`);
    const unspent = await store.getUnspent(script, { limit: 10_000, includeMempool: false });
    const confirmedUnspent = expected.outpoints.filter((o) => !view.mempoolSpent.has(o));
    assert.deepEqual(unspent.map((u) => `${u.txid}:${u.vout}`).sort(), confirmedUnspent, `${label}: unspent outputs of ${address}`);
    const theirs = view.history.get(address)!;
    const pendingTheirs = theirs.filter((x) => x.height === null);
    assert.deepEqual(
      { received: totals.unconfirmedReceived, sent: totals.unconfirmedSent, txs: totals.unconfirmedTxCount },
      {
        received: pendingTheirs.reduce((sum, x) => sum + x.received, 0n),
        sent: pendingTheirs.reduce((sum, x) => sum + x.sent, 0n),
        txs: pendingTheirs.length,
      },
      `${label}: unconfirmed totals of ${address}`,
    );
    const withMempool = await store.getUnspent(script, { limit: 10_000, includeMempool: true });
    assert.deepEqual(
      withMempool.map((u) => `${u.txid}:${u.vout}`).sort(),
      [...confirmedUnspent, ...view.mempoolOutputs.get(address)!.filter((o) => !view.mempoolSpent.has(o))].sort(),
      `${label}: unspent outputs of ${address} with the mempool`,
    );
    const history = await store.getAddressHistory(script, { limit: 100_000, direction: 'asc' });
    const ours: HistoryItem[] = history.map((e) => ({ txid: e.txid, height: e.height, position: e.position, received: e.received, sent: e.sent }));
    // Chain order is exact; the mempool part is compared as a set (ours orders it by first-seen time).
    const confirmed = (xs: HistoryItem[]) => xs.filter((x) => x.height !== null);
    const pending = (xs: HistoryItem[]) => xs.filter((x) => x.height === null).sort((a, b) => (a.txid < b.txid ? -1 : 1));
    assert.deepEqual(confirmed(ours), confirmed(theirs), `${label}: confirmed history of ${address}`);
    assert.deepEqual(pending(ours), pending(theirs), `${label}: mempool history of ${address}`);
  }
}

/** The store's tip and mempool equal the node's. */
export async function assertTipAndMempoolMatchNode(node: OracleNode, store: NetworkStore, label: string): Promise<void> {
  const [best, height, mempool] = await Promise.all([
    node.rpc.call<string>('getbestblockhash'),
    node.rpc.call<number>('getblockcount'),
    node.rpc.call<string[]>('getrawmempool'),
  ]);
  assert.deepEqual(await store.getTip(), { height, hash: best }, `${label}: tip`);
  assert.deepEqual((await store.getMempoolTxids()).sort(), [...mempool].sort(), `${label}: mempool`);
}
