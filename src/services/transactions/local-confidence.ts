import type { TxRecord } from '../../core/store/chain-reads.js';
import type { NetworkContext } from '../shared/network-registry.js';

/** Fee rate (base units per vbyte) at which the fee part of the score is full: Core's default relay minimum is 1. */
const FULL_FEE_RATE = 10;
/** How many distinct parents are looked up at most; a tx with more unconfirmed-looking parents scores as such. */
const MAX_PARENTS = 20;

/**
 * Confidence that an unconfirmed tx will confirm from what our own node knows, when no P2P peer sampled it:
 *   0.50 for being live in our node's mempool (it passed full validation and policy)
 * + 0.25 × min(1, seconds in the mempool / target block spacing)   (a double spend is most likely early)
 * + 0.14 when every parent is confirmed                              (no chain of unconfirmed ancestors to fail)
 * + 0.10 × min(1, fee rate / 10 per vbyte)                            (miners take it soon)
 * capped at 0.99 and rounded to 0.01.
 */
export async function localConfidence(ctx: NetworkContext, record: TxRecord, nowSeconds: number): Promise<number> {
  const age = Math.max(0, nowSeconds - (record.seenAt ?? record.time));
  const ageFactor = Math.min(1, age / ctx.params.targetSpacing);
  const parents = [...new Set(record.prevouts.flatMap((p) => (p ? [p.txid] : [])))];
  let parentsConfirmed = parents.length <= MAX_PARENTS;
  for (const parent of parentsConfirmed ? parents : []) {
    const found = await ctx.reader.getTransaction(parent);
    if (found?.status !== 'confirmed') {
      parentsConfirmed = false;
      break;
    }
  }
  const feeRate = record.fee === null || record.vsize === 0 ? 0 : Number(record.fee) / record.vsize;
  const feeFactor = Math.min(1, feeRate / FULL_FEE_RATE);
  const raw = 0.5 + 0.25 * ageFactor + (parentsConfirmed ? 0.14 : 0) + 0.1 * feeFactor;
  return Math.min(0.99, Math.round(raw * 100) / 100);
}
