import type { TxRecord } from '../../core/store/chain-reads.js';
import type { Transaction } from '../../core/domain/chain-types.js';
import { parseTransaction } from '../../chains/parsing.js';
import { checkTxid } from './tx-service.js';
import { confirmationsAt, immatureCoinbaseConfidence, isConfirmedBySpec } from '../shared/confirmations.js';
import { doubleSpendVerdict } from './double-spend-verdict.js';
import { localConfidence } from './local-confidence.js';
import { networkConfidence } from './network-confidence.js';
import { peerOnlyRecord } from './peer-only-record.js';
import { NotFoundError } from '../../core/domain/errors.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';
import { rawTxOf } from './raw-tx-reader.js';

/** Unconfirmed parents whose score caps a child's, at most. */
const MAX_PARENTS = 20;

/** Which evidence scored an unconfirmed tx: P2P peers' announcements, or what our own node knows alone. */
export type ConfidenceModel = 'network' | 'local';

export interface TxConfidence {
  readonly network: NetworkContext;
  readonly txid: string;
  readonly confirmations: number;
  /** 1 when confirmed (a coinbase: at 240 confirmations); 0 to 0.99 (two decimals: the spec's 1% margin) when not. */
  readonly confidence: number;
  /** null when confirmed (by the spec's rule). */
  readonly isDoubleSpend: boolean | null;
  /** null when confirmed; else `network` when P2P peers sampled the tx since it was first seen, `local` otherwise. */
  readonly model: ConfidenceModel | null;
  /**
   * Nodes sampled that hold the unconfirmed tx: the P2P peers that announced it (network model), or 1 for our own
   * node's mempool, 0 once it left it (local model). null when confirmed.
   */
  readonly nodes: number | null;
  /**
   * Nodes sampled: the P2P peers that could have announced the tx (connected since before it was first seen, or that
   * did), or 1, our own node (local model). null when confirmed.
   */
  readonly nodesSampled: number | null;
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
        return { ...base, confirmations, confidence: 1, isDoubleSpend: null, model: null, nodes: null, nodesSampled: null, conflictingTxids: [] };
      }
      // A coinbase below 240 confirmations is not confirmed by the spec's rule, so not 1.0 (as is_tx_confirmed says);
      // it cannot be double spent (only orphaned), and the watched node has it in its chain.
      const confidence = immatureCoinbaseConfidence(confirmations);
      return { ...base, confirmations, confidence, isDoubleSpend: false, model: 'local', nodes: 1, nodesSampled: 1, conflictingTxids: [] };
    }
    const tx = peer?.tx ?? parseTransaction(await rawTxOf(ctx, record), { mweb: ctx.params.features.mweb });
    const verdict = record.status === 'orphaned' ? { doubleSpent: false, conflictingTxids: [] } : await doubleSpendVerdict(ctx, tx, stored);
    const live = record.status === 'mempool';
    // The same rule as networkScore: peers sampled the tx, or only our own node did.
    const seen = ctx.sightings?.sighting(id) ?? null;
    const sample = seen && seen.sampled > 0 ? { model: 'network' as const, nodes: seen.announcedBy, nodesSampled: seen.sampled } : { model: 'local' as const, nodes: live && stored ? 1 : 0, nodesSampled: 1 };
    if (!live || verdict.doubleSpent) {
      return { ...base, ...sample, confirmations: 0, confidence: 0, isDoubleSpend: verdict.doubleSpent, conflictingTxids: verdict.conflictingTxids };
    }
    const confidence = await this.score(ctx, tx, record, !stored);
    return { ...base, ...sample, confirmations: 0, confidence, isDoubleSpend: false, conflictingTxids: verdict.conflictingTxids };
  }

  /** The network model when peers sampled the tx, capped by its unconfirmed parents; else the local model. */
  private async score(ctx: NetworkContext, tx: Transaction, record: TxRecord, peerOnly: boolean): Promise<number> {
    const own = this.networkScore(ctx, tx.txid, !peerOnly);
    if (own === null) return localConfidence(ctx, record, this.now());
    let confidence = own;
    for (const parent of [...new Set(tx.inputs.map((i) => i.prevTxid))].slice(0, MAX_PARENTS)) {
      const parentRecord = await ctx.reader.getTransaction(parent);
      if (parentRecord?.status === 'confirmed') continue;
      const parentScore = this.networkScore(ctx, parent, parentRecord?.status === 'mempool');
      if (parentScore !== null) confidence = Math.min(confidence, parentScore);
    }
    return confidence;
  }

  /**
   * null when no peer could have announced the tx (no P2P, or none connected since it was first seen). Our own node
   * is one more sample, holding the tx when its mempool does.
   */
  private networkScore(ctx: NetworkContext, txid: string, inOurMempool: boolean): number | null {
    const seen = ctx.sightings?.sighting(txid);
    if (!seen || seen.sampled === 0) return null;
    return networkConfidence({
      holders: seen.announcedBy + (inOurMempool ? 1 : 0),
      sampled: seen.sampled + 1,
      ageSeconds: (this.now() * 1000 - seen.firstSeenMs) / 1000,
      propagationSeconds: ctx.params.txPropagationSeconds,
    });
  }
}
