import type { TxRecord } from '../core/store.js';
import { checkTxid } from './tx-service.js';
import { confirmationsAt, immatureCoinbaseConfidence, isConfirmedBySpec } from './confirmations.js';
import { NotFoundError } from '../core/errors.js';
import type { NetworkContext, NetworkRegistry } from './network-registry.js';

export interface TxConfidence {
  readonly network: NetworkContext;
  readonly txid: string;
  readonly confirmations: number;
  /** 1 when confirmed (a coinbase: at 240 confirmations); 0 to 0.99 (two decimals: the spec's 1% margin) when not. */
  readonly confidence: number;
  /** null when confirmed (by the spec's rule). */
  readonly isDoubleSpend: boolean | null;
  /** Nodes known to hold the unconfirmed tx in their mempool (this server watches one per network); null when confirmed. */
  readonly nodes: number | null;
}

/** Fee rate (base units per vbyte) at which the fee part of the score is full: Core's default relay minimum is 1. */
const FULL_FEE_RATE = 10;
/** How many distinct parents are looked up at most; a tx with more unconfirmed-looking parents scores as such. */
const MAX_PARENTS = 20;

/**
 * Confidence that an unconfirmed tx will confirm, from what the index knows (no peer sampling):
 *   0.50 for being live in our node's mempool (it passed full validation and policy)
 * + 0.25 × min(1, seconds in the mempool / target block spacing)   (a double spend is most likely early)
 * + 0.14 when every parent is confirmed                              (no chain of unconfirmed ancestors to fail)
 * + 0.10 × min(1, fee rate / 10 per vbyte)                            (miners take it soon)
 * capped at 0.99 and rounded to 0.01. A tx flagged double-spent, replaced, evicted or left only in
 * an orphaned block scores 0.
 */
export class ConfidenceService {
  constructor(
    private readonly networks: NetworkRegistry,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  async get(network: string, txid: string): Promise<TxConfidence> {
    const ctx = this.networks.resolve(network);
    const id = checkTxid(txid);
    const [record, tip] = await Promise.all([ctx.reader.getTransaction(id), ctx.reader.getTip()]);
    if (!record) throw new NotFoundError('txid', `transaction ${id} is not known on ${ctx.id}`);
    if (record.status === 'confirmed') {
      const confirmations = confirmationsAt(tip, record.height);
      if (isConfirmedBySpec(record.isCoinbase, confirmations)) {
        return { network: ctx, txid: id, confirmations, confidence: 1, isDoubleSpend: null, nodes: null };
      }
      // A coinbase below 240 confirmations is not confirmed by the spec's rule, so not 1.0 (as is_tx_confirmed says);
      // it cannot be double spent (only orphaned), and the watched node has it in its chain.
      return { network: ctx, txid: id, confirmations, confidence: immatureCoinbaseConfidence(confirmations), isDoubleSpend: false, nodes: 1 };
    }
    const live = record.status === 'mempool';
    if (!live || record.doubleSpent) {
      return { network: ctx, txid: id, confirmations: 0, confidence: 0, isDoubleSpend: record.doubleSpent, nodes: live ? 1 : 0 };
    }
    const score = await this.score(ctx, record);
    return { network: ctx, txid: id, confirmations: 0, confidence: score, isDoubleSpend: false, nodes: 1 };
  }

  private async score(ctx: NetworkContext, record: TxRecord): Promise<number> {
    const age = Math.max(0, this.now() - (record.seenAt ?? record.time));
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
}
