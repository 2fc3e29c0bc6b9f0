/**
 * BIP125 opt-in replace-by-fee, as far as the listener can judge it from two conflicting txs: the replaced one
 * signals replaceability (an input's nSequence below 0xfffffffe) and the replacement pays a higher absolute fee and a
 * higher fee rate (rules 1, 3 and 4 in spirit; inherited signalling through unconfirmed parents is not followed).
 * A conflict no rule decides is a double spend.
 */
import type { ConflictRelation, Sats, Transaction } from '../../core/index.js';

/** Core's MAX_BIP125_RBF_SEQUENCE. */
const MAX_BIP125_RBF_SEQUENCE = 0xfffffffd;

export function signalsReplaceability(tx: Transaction): boolean {
  return tx.inputs.some((input) => input.sequence <= MAX_BIP125_RBF_SEQUENCE);
}

export interface FeeFacts {
  readonly tx: Transaction;
  /** null when an input's value is unknown. */
  readonly fee: Sats | null;
}

function outbids(x: FeeFacts, y: FeeFacts): boolean {
  if (x.fee === null || y.fee === null || !signalsReplaceability(y.tx)) return false;
  // fee(x)/vsize(x) > fee(y)/vsize(y), in integers.
  return x.fee > y.fee && x.fee * BigInt(y.tx.vsize) > y.fee * BigInt(x.tx.vsize);
}

/** How `a` relates to the conflicting `b`. */
export function relationOf(a: FeeFacts, b: FeeFacts): ConflictRelation {
  if (outbids(a, b)) return 'replaces';
  if (outbids(b, a)) return 'replaced-by';
  return 'double-spend';
}
