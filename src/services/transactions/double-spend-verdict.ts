/**
 * Is an unconfirmed transaction double spent, and by what? One answer for get_confidence, get_tx's display and the
 * explorer, from two sources: the index (another spender of one of its outpoints, confirmed or in our node's mempool;
 * a tx the indexer removed as replaced or conflicted) and the P2P sightings (conflicting spends relayed by peers,
 * judged with BIP125 by the listener). The stored double-spent flag of a tx still live in our mempool is history (a
 * replacement keeps it after the tx it replaced left): the live verdict is computed here, so a BIP125 replacement
 * that is the only live spender reads like any other tx.
 */
import { hasLiveConflict, type SpenderState, type TxRecord } from '../../core/index.js';
import type { Transaction } from '../../core/domain/chain-types.js';
import type { NetworkContext } from '../shared/network-registry.js';

export interface DoubleSpendVerdict {
  /** Its coins are (or may be) spent by another tx: a live or confirmed competitor, a replacement, a dead parent. */
  readonly doubleSpent: boolean;
  /** Every competing spender known (index and peers), whether or not it still counts. */
  readonly conflictingTxids: readonly string[];
}

/** Distinct parents whose verdict is looked at (a tx with more is judged on the first ones). */
const MAX_PARENTS = 20;

/** Where a competing spender stands, as far as this process can tell. */
export async function spenderState(ctx: NetworkContext, txid: string): Promise<SpenderState> {
  const record = await ctx.reader.getTransaction(txid);
  if (record) return record.status === 'confirmed' ? 'confirmed' : record.status === 'mempool' ? 'live' : 'dead';
  const peer = ctx.sightings?.peerTx(txid);
  if (peer) return peer.dead ? 'dead' : 'live';
  return 'unknown';
}

/**
 * The verdict for `tx` given its index record (null: known only from peers). Confirmed and orphaned txs are never
 * double spent here (the caller answers them); removed ones always are.
 */
export async function doubleSpendVerdict(ctx: NetworkContext, tx: Transaction, record: TxRecord | null): Promise<DoubleSpendVerdict> {
  const conflicting = new Set<string>();
  let doubleSpent = record?.status === 'removed' || (record === null && (ctx.sightings?.peerTx(tx.txid)?.dead ?? false));
  // The index's spender of each outpoint: the confirmed one if any, else the one live in our mempool.
  const parentIds = [...new Set(tx.inputs.map((i) => i.prevTxid))];
  const outputs = new Map(await Promise.all(parentIds.map(async (p) => [p, await ctx.reader.getOutputs(p)] as const)));
  const seen = ctx.sightings?.conflicts(tx.txid) ?? [];
  for (const input of tx.isCoinbase ? [] : tx.inputs) {
    const spentBy = outputs.get(input.prevTxid)?.find((o) => o.vout === input.prevVout)?.spentBy;
    if (!spentBy || spentBy.txid === tx.txid) continue;
    conflicting.add(spentBy.txid);
    // A tx the listener saw this one replace (BIP125) is on its way out of every mempool, ours included.
    const replaced = !spentBy.confirmed && seen.some((c) => c.txid === spentBy.txid && c.relation === 'replaces');
    if (!replaced) doubleSpent = true;
  }
  if (seen.length > 0) {
    const states = new Map(await Promise.all(seen.map(async (c) => [c.txid, await spenderState(ctx, c.txid)] as const)));
    for (const c of seen) conflicting.add(c.txid);
    if (hasLiveConflict(seen, (txid) => states.get(txid) ?? 'unknown')) doubleSpent = true;
  }
  if (!doubleSpent) doubleSpent = await parentDoubleSpent(ctx, parentIds);
  return { doubleSpent, conflictingTxids: [...conflicting] };
}

/**
 * A child of a double-spent unconfirmed parent spends coins that may never exist: it is double spent too. Parents
 * are judged by their index status and their P2P conflicts (not recursively).
 */
async function parentDoubleSpent(ctx: NetworkContext, parentIds: readonly string[]): Promise<boolean> {
  for (const parent of parentIds.slice(0, MAX_PARENTS)) {
    const record = await ctx.reader.getTransaction(parent);
    if (record?.status === 'removed') return true;
    if (record?.status === 'confirmed' || record?.status === 'orphaned') continue;
    if (!record && ctx.sightings?.peerTx(parent)?.dead) return true;
    const seen = ctx.sightings?.conflicts(parent) ?? [];
    if (seen.length === 0) continue;
    const states = new Map(await Promise.all(seen.map(async (c) => [c.txid, await spenderState(ctx, c.txid)] as const)));
    if (hasLiveConflict(seen, (txid) => states.get(txid) ?? 'unknown')) return true;
  }
  return false;
}
