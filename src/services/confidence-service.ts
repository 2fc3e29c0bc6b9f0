import type { TxRecord } from '../core/store.js';
import type { Transaction } from '../core/chain-types.js';
import { parseTransaction } from '../chains/parsing.js';
import { checkTxid } from './tx-service.js';
import { confirmationsAt, immatureCoinbaseConfidence, isConfirmedBySpec } from './confirmations.js';
import { doubleSpendVerdict } from './double-spend-verdict.js';
import { localConfidence } from './local-confidence.js';
import { networkConfidence } from './network-confidence.js';
import { peerOnlyRecord } from './peer-only-record.js';
import { NotFoundError } from '../core/errors.js';
import type { NetworkContext, NetworkRegistry } from './network-registry.js';

/** Unconfirmed parents whose score caps a child's, at most. */
const MAX_PARENTS = 20;

export interface TxConfidence {
  readonly network: NetworkContext;
  readonly txid: string;
  readonly confirmations: number;
  /** 1 when confirmed (a coinbase: at 240 confirmations); 0 to 0.99 (two decimals: the spec's 1% margin) when not. */
  readonly confidence: number;
  /** null when confirmed (by the spec's rule). */
  readonly isDoubleSpend: boolean | null;
  /**
   * Nodes sampled that hold the unconfirmed tx: the P2P peers that announced it, or (no peers: the local model) 1 for
   * our own node's mempool, 0 when it left it. null when confirmed.
   */
  readonly nodes: number | null;
  /** Competing spenders known (index and peers), for displays that name them. */
  readonly conflictingTxids: readonly string[];
  /** Known only from peers: our node's mempool never held it. */
  readonly peerOnly: boolean;
}

/**
 * Network confidence (docs/confidence.md). An unconfirmed tx with a double spend seen anywhere (a peer, our mempool,
 * a block) scores 0 with is_double_spend; otherwise, when the P2P listener sampled peers since the tx was first seen,
 * the network model (network-confidence.ts) scores it from their announcements, capped by its unconfirmed parents'
 * scores; without peers the local model (local-confidence.ts) does, from what our own node knows.
 */
export class ConfidenceService {
  constructor(
    private readonly networks: NetworkRegistry,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  async get(network: string, txid: string): Promise<TxConfidence> {
    const ctx = this.networks.resolve(network);
    const id = checkTxid(txid);
    const [stored, tip] = await Promise.all([ctx.reader.getTransaction(id), ctx.reader.getTip()]);
    const peer = stored ? null : ctx.sightings?.peerTx(id);
    if (!stored && !peer) throw new NotFoundError('txid', `transaction ${id} is not known on ${ctx.id}`);
    const record = stored ?? peerOnlyRecord(peer!, false);
    const base = { network: ctx, txid: id, peerOnly: !stored };
    if (record.status === 'confirmed') {
      const confirmations = confirmationsAt(tip, record.height);
      if (isConfirmedBySpec(record.isCoinbase, confirmations)) {
        return { ...base, confirmations, confidence: 1, isDoubleSpend: null, nodes: null, conflictingTxids: [] };
      }
      // A coinbase below 240 confirmations is not confirmed by the spec's rule, so not 1.0 (as is_tx_confirmed says);
      // it cannot be double spent (only orphaned), and the watched node has it in its chain.
      return { ...base, confirmations, confidence: immatureCoinbaseConfidence(confirmations), isDoubleSpend: false, nodes: 1, conflictingTxids: [] };
    }
    const tx = peer?.tx ?? parseTransaction(record.raw, { mweb: ctx.params.features.mweb });
    const verdict = record.status === 'orphaned' ? { doubleSpent: false, conflictingTxids: [] } : await doubleSpendVerdict(ctx, tx, stored);
    const announced = ctx.sightings?.sighting(id) ?? null;
    const live = record.status === 'mempool';
    if (!live || verdict.doubleSpent) {
      const nodes = announced ? announced.announcedBy : live ? 1 : 0;
      return { ...base, confirmations: 0, confidence: 0, isDoubleSpend: verdict.doubleSpent, nodes, conflictingTxids: verdict.conflictingTxids };
    }
    const score = await this.score(ctx, tx, record, !stored);
    return { ...base, confirmations: 0, confidence: score.confidence, isDoubleSpend: false, nodes: score.nodes, conflictingTxids: verdict.conflictingTxids };
  }

  /** The network model when peers sampled the tx, capped by its unconfirmed parents; else the local model. */
  private async score(ctx: NetworkContext, tx: Transaction, record: TxRecord, peerOnly: boolean): Promise<{ confidence: number; nodes: number }> {
    const own = this.networkScore(ctx, tx.txid, !peerOnly);
    if (own === null) return { confidence: await localConfidence(ctx, record, this.now()), nodes: 1 };
    let confidence = own.confidence;
    for (const parent of [...new Set(tx.inputs.map((i) => i.prevTxid))].slice(0, MAX_PARENTS)) {
      const parentRecord = await ctx.reader.getTransaction(parent);
      if (parentRecord?.status === 'confirmed') continue;
      const parentScore = this.networkScore(ctx, parent, parentRecord?.status === 'mempool');
      if (parentScore) confidence = Math.min(confidence, parentScore.confidence);
    }
    return { confidence, nodes: own.nodes };
  }

  /**
   * null when no peer could have announced the tx (no P2P, or none connected since it was first seen). Our own node
   * is one more sample, holding the tx when its mempool does.
   */
  private networkScore(ctx: NetworkContext, txid: string, inOurMempool: boolean): { confidence: number; nodes: number } | null {
    const seen = ctx.sightings?.sighting(txid);
    if (!seen || seen.sampled === 0) return null;
    const ageSeconds = (this.now() * 1000 - seen.firstSeenMs) / 1000;
    const confidence = networkConfidence({
      holders: seen.announcedBy + (inOurMempool ? 1 : 0),
      sampled: seen.sampled + 1,
      ageSeconds,
      propagationSeconds: ctx.params.txPropagationSeconds,
    });
    return { confidence, nodes: seen.announcedBy };
  }
}
