/**
 * Finds conflicting spends between what peers relay and what our index holds: a tx received from a peer is checked
 * against the index (its outpoints' spenders, confirmed or in our mempool) and against other peer-only txs; a tx our
 * node accepts is checked against the peer-only ones; after each block, peer-only txs are checked for a confirmed
 * competitor (they can then never confirm) or for having been confirmed themselves (the index holds them now).
 * Conflicting pairs are judged with BIP125 (bip125.ts) and recorded in the ConflictBook; notices go out through the
 * DoubleSpendNotifier.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { NetworkReader, OutputRecord, PrevoutInfo, Sats, Transaction } from '../../core/index.js';
import { parseTransaction } from '../../chains/parsing.js';
import { relationOf, type FeeFacts } from './bip125.js';
import { ConflictBook } from './conflict-book.js';
import type { DoubleSpendNotifier, TxFacts } from './double-spend-notifier.js';
import { PeerTxPool } from './peer-tx-pool.js';

interface Competitor {
  readonly txid: string;
  readonly confirmed: boolean;
  readonly vin: number;
}

/** Peer-only txs looked at per step of a post-block recheck before the event loop gets a turn. */
const RECHECK_CHUNK = 200;

export class ConflictDetector {
  constructor(
    readonly pool: PeerTxPool,
    readonly book: ConflictBook,
    private readonly reader: NetworkReader,
    private readonly notifier: DoubleSpendNotifier,
    private readonly mweb: boolean,
    private readonly nowMs: () => number,
  ) {}

  /** A tx a peer sent us. Returns false when our index already holds it (nothing peer-only to keep). */
  async peerTx(tx: Transaction, firstSeenMs: number): Promise<boolean> {
    if (this.pool.has(tx.txid)) return true;
    const record = await this.reader.getTransaction(tx.txid);
    if (record) {
      // Known to the index: its conflicts with other stored txs are the store's business; with peer-only ones, ours.
      if (record.status === 'mempool') await this.indexTx(tx, record.prevouts, record.fee);
      return false;
    }
    const outputs = await this.parentOutputs(tx);
    const prevouts = tx.inputs.map((input): PrevoutInfo | null => {
      const stored = outputs.get(input.prevTxid)?.find((o) => o.vout === input.prevVout);
      if (stored) return { txid: input.prevTxid, vout: input.prevVout, value: stored.value, script: stored.script };
      return this.pool.outputOf({ txid: input.prevTxid, vout: input.prevVout });
    });
    const fee = feeOf(tx, prevouts);
    const competitors: Competitor[] = [];
    tx.inputs.forEach((input, vin) => {
      const spentBy = outputs.get(input.prevTxid)?.find((o) => o.vout === input.prevVout)?.spentBy;
      if (spentBy && spentBy.txid !== tx.txid) competitors.push({ txid: spentBy.txid, confirmed: spentBy.confirmed, vin });
      const peerSpender = this.pool.spenderOf({ txid: input.prevTxid, vout: input.prevVout });
      if (peerSpender && peerSpender !== tx.txid) competitors.push({ txid: peerSpender, confirmed: false, vin });
    });
    this.pool.add(tx, prevouts, fee, firstSeenMs);
    await this.judge({ tx, fee }, false, competitors);
    return true;
  }

  /** A tx our index now holds in its mempool (the indexer accepted it): is a peer-only tx competing with it? */
  async indexTx(tx: Transaction, prevouts: readonly (PrevoutInfo | null)[] | null, fee: Sats | null): Promise<void> {
    this.pool.remove(tx.txid);
    const competitors: Competitor[] = [];
    tx.inputs.forEach((input, vin) => {
      const peerSpender = this.pool.spenderOf({ txid: input.prevTxid, vout: input.prevVout });
      if (peerSpender && peerSpender !== tx.txid) competitors.push({ txid: peerSpender, confirmed: false, vin });
    });
    if (competitors.length > 0) await this.judge({ tx, fee: fee ?? (prevouts ? feeOf(tx, prevouts) : null) }, true, competitors);
  }

  /** After a block: peer-only txs it confirmed leave the pool; those it conflicted die. */
  async afterBlock(): Promise<void> {
    const txids = this.pool.txids();
    for (let i = 0; i < txids.length; i += RECHECK_CHUNK) {
      for (const txid of txids.slice(i, i + RECHECK_CHUNK)) await this.recheck(txid);
      await yieldToEventLoop();
    }
  }

  /** A tx as the notifier and BIP125 need it: from the pool, else from the index. */
  async facts(txid: string): Promise<TxFacts | null> {
    const peer = this.pool.get(txid);
    if (peer) return { tx: peer.tx, prevouts: peer.prevouts, peerOnly: true };
    const record = await this.reader.getTransaction(txid);
    // A confirmed tx whose raw bytes only the node keeps (raw_txs = "node") is not read back here: BIP125 concerns
    // unconfirmed txs only, and its spends are in the index, where the conflict itself was found.
    if (!record || record.raw === null) return null;
    return { tx: parseTransaction(record.raw, { mweb: this.mweb }), prevouts: record.prevouts, peerOnly: false };
  }

  private async recheck(txid: string): Promise<void> {
    const entry = this.pool.get(txid);
    if (!entry || entry.dead) return;
    const record = await this.reader.getTransaction(txid);
    if (record && record.status !== 'orphaned') {
      this.pool.remove(txid);
      return;
    }
    const outputs = await this.parentOutputs(entry.tx);
    const winners = new Set<string>();
    for (const input of entry.tx.inputs) {
      const spentBy = outputs.get(input.prevTxid)?.find((o) => o.vout === input.prevVout)?.spentBy;
      if (spentBy?.confirmed && spentBy.txid !== txid) winners.add(spentBy.txid);
    }
    if (winners.size === 0) return;
    this.pool.markDead(txid);
    for (const winner of winners) this.record(txid, winner, 'double-spend', entry.tx);
    await this.notifier.notify({ txid, conflictingTxids: [...winners], reason: 'conflicted', seenIn: 'block' });
  }

  /** Records and announces each competitor of `subject`, judged by BIP125 when both are unconfirmed. */
  private async judge(subject: FeeFacts, subjectInIndex: boolean, competitors: readonly Competitor[]): Promise<void> {
    const seen = new Set<string>();
    for (const c of competitors) {
      if (seen.has(c.txid)) continue;
      seen.add(c.txid);
      const txid = subject.tx.txid;
      if (c.confirmed) {
        this.pool.markDead(txid);
        this.record(txid, c.txid, 'double-spend', subject.tx, c.vin);
        await this.notifier.notify({ txid, conflictingTxids: [c.txid], reason: 'conflicted', seenIn: 'block' });
        continue;
      }
      const other = await this.facts(c.txid);
      const otherFee = other ? feeOf(other.tx, other.prevouts) : null;
      const relation = other ? relationOf(subject, { tx: other.tx, fee: otherFee }) : 'double-spend';
      if (!this.record(txid, c.txid, relation, subject.tx, c.vin)) continue;
      // Where each side's competitor was seen: a tx in our index lost to (or competes with) one relayed by peers.
      const otherSeenIn = subjectInIndex ? 'mempool' : 'peers';
      const subjectSeenIn = other && !other.peerOnly ? 'mempool' : 'peers';
      if (relation === 'replaces') await this.notifier.notify({ txid: c.txid, conflictingTxids: [txid], reason: 'replaced', seenIn: otherSeenIn });
      else if (relation === 'replaced-by') await this.notifier.notify({ txid, conflictingTxids: [c.txid], reason: 'replaced', seenIn: subjectSeenIn });
      else {
        await this.notifier.notify({ txid, conflictingTxids: [c.txid], reason: 'double_spend', seenIn: subjectSeenIn });
        await this.notifier.notify({ txid: c.txid, conflictingTxids: [txid], reason: 'double_spend', seenIn: otherSeenIn });
      }
    }
  }

  private record(txid: string, other: string, relation: Parameters<ConflictBook['add']>[2], tx: Transaction, vin = -1): boolean {
    const input = vin >= 0 ? tx.inputs[vin]! : tx.inputs[0]!;
    return this.book.add(txid, other, relation, { txid: input.prevTxid, vout: input.prevVout }, this.nowMs());
  }

  /** Outputs (with spenders) of each distinct parent the index holds, confirmed or in our mempool. */
  private async parentOutputs(tx: Transaction): Promise<Map<string, OutputRecord[]>> {
    const parents = [...new Set(tx.inputs.map((i) => i.prevTxid))];
    const found = await Promise.all(parents.map(async (p) => [p, await this.reader.getOutputs(p)] as const));
    return new Map(found.filter((e): e is readonly [string, OutputRecord[]] => e[1] !== null));
  }
}

/** Inputs minus outputs when every input's value is known; else null. */
export function feeOf(tx: Transaction, prevouts: readonly (PrevoutInfo | null)[]): Sats | null {
  if (tx.isCoinbase || prevouts.length !== tx.inputs.length || prevouts.some((p) => p === null)) return null;
  const inputs = prevouts.reduce((sum, p) => sum + p!.value, 0n);
  return inputs - tx.outputs.reduce((sum, o) => sum + o.value, 0n);
}
