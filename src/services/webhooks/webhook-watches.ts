import type { NetworkReader } from '../../core/store/network-store.js';
import type { TxWatch } from '../../core/store/webhook-store.js';
import { confirmationsAt } from '../shared/confirmations.js';

/** Blocks past its target after which a watch is dropped: a reorg deeper than this is not reported. */
export const REORG_WINDOW = 6;

/** A tx's depth now: its confirmations, 0 in the mempool, -1 when no longer anywhere (removed, orphaned, unknown). */
export async function txDepth(reader: NetworkReader, txid: string): Promise<number> {
  const [tx, tip] = await Promise.all([reader.getTransaction(txid), reader.getTip()]);
  if (!tx) return -1;
  if (tx.status === 'confirmed') return confirmationsAt(tip, tx.height);
  return tx.status === 'mempool' ? 0 : -1;
}

export interface WatchDecision {
  readonly deliver: boolean;
  /** The delivery reports a depth that went down (a reorg). */
  readonly reorg: boolean;
  /** The depth to record as delivered. */
  readonly next: number;
  readonly drop: boolean;
}

/**
 * Reaching the target delivers once; falling below it after it was delivered delivers the change (a reorg un-confirmed
 * the tx or removed it); deep enough past the target the watch ends.
 */
export function watchDecision(watch: TxWatch, depth: number): WatchDecision {
  const reached = depth >= watch.target;
  const wasDelivered = watch.delivered >= watch.target;
  if (reached && !wasDelivered) return { deliver: true, reorg: false, next: depth, drop: depth >= watch.target + REORG_WINDOW };
  if (!reached && wasDelivered) return { deliver: true, reorg: true, next: depth, drop: false };
  return { deliver: false, reorg: false, next: reached ? depth : watch.delivered, drop: depth >= watch.target + REORG_WINDOW };
}

/**
 * A wallet hook's watch (issue 50): the first confirmation and the hook's `confirmations` when more (watch.target) are
 * each delivered once; a reorg that takes the tx below a depth delivered delivers the change. A tx that left the
 * mempool unconfirmed (replaced, evicted) is no longer followed (a replacement was reported as a double spend).
 */
export function walletWatchDecision(watch: TxWatch, depth: number): WatchDecision {
  const milestones = [...new Set([1, watch.target])];
  const level = (d: number): number => milestones.filter((m) => d >= m).length;
  const was = level(watch.delivered);
  const now = level(depth);
  const drop = depth >= watch.target + REORG_WINDOW || (depth < 0 && watch.delivered < 1);
  if (now === was) return { deliver: false, reorg: false, next: depth < 0 ? watch.delivered : depth, drop };
  return { deliver: true, reorg: now < was, next: depth, drop };
}
