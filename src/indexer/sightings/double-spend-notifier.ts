/**
 * Publishes `double_spend` domain events (realtime: address and blockchain channels, docs/realtime.md), once per
 * (tx, competitor) pair whoever saw it first: the listener (a peer relayed a conflicting spend), the indexer (our
 * node replaced a tx, a block confirmed a conflicting one). A tx known only from peers that is one side of a live
 * double spend also gets its `address_touched` events (balance_update), since the indexer never will announce it.
 */
import type { DoubleSpendEvent, EventBus, NetworkId, Outpoint, PrevoutInfo, Transaction } from '../../core/index.js';
import { txDeltas } from './tx-deltas.js';

export interface TxFacts {
  readonly tx: Transaction;
  readonly prevouts: readonly (PrevoutInfo | null)[];
  /** Known only from peers (not in our index). */
  readonly peerOnly: boolean;
}

export interface DoubleSpendNotice {
  readonly txid: string;
  readonly conflictingTxids: readonly string[];
  readonly reason: DoubleSpendEvent['reason'];
  readonly seenIn: DoubleSpendEvent['seenIn'];
}

const MAX_REMEMBERED = 50_000;

/** A set that forgets its oldest members beyond a size. */
class RecentSet {
  private readonly items = new Set<string>();
  constructor(private readonly max: number) {}
  has(key: string): boolean {
    return this.items.has(key);
  }
  add(key: string): void {
    if (this.items.size >= this.max) this.items.delete(this.items.values().next().value!);
    this.items.add(key);
  }
}

export class DoubleSpendNotifier {
  private readonly pairs = new RecentSet(MAX_REMEMBERED);
  private readonly touched = new RecentSet(MAX_REMEMBERED);

  constructor(
    private readonly network: NetworkId,
    private readonly bus: EventBus,
    private readonly facts: (txid: string) => Promise<TxFacts | null>,
    private readonly nowSeconds: () => number,
  ) {}

  async notify(notice: DoubleSpendNotice): Promise<void> {
    const fresh = notice.conflictingTxids.filter((other) => !this.pairs.has(`${notice.txid}>${other}`));
    if (fresh.length === 0) return;
    for (const other of fresh) this.pairs.add(`${notice.txid}>${other}`);
    const own = await this.facts(notice.txid);
    const others = (await Promise.all(notice.conflictingTxids.map((txid) => this.facts(txid)))).filter((f): f is TxFacts => f !== null);
    const scripts = new Map<string, Uint8Array>();
    const addScript = (script: Uint8Array): void => {
      scripts.set(Buffer.from(script.buffer, script.byteOffset, script.byteLength).toString('hex'), script);
    };
    for (const f of own ? [own, ...others] : others) {
      for (const prev of f.prevouts) if (prev) addScript(prev.script);
      for (const output of f.tx.outputs) addScript(output.script);
    }
    this.bus.publish({
      kind: 'double_spend',
      network: this.network,
      txid: notice.txid,
      conflictingTxids: notice.conflictingTxids,
      reason: notice.reason,
      seenIn: notice.seenIn,
      outpoints: own ? contested(own.tx, others.map((f) => f.tx)) : [],
      scripts: [...scripts.values()],
      time: this.nowSeconds(),
    });
    // Both sides of a live double spend are news for their addresses; a tx our index holds was announced already.
    if (notice.reason !== 'double_spend') return;
    for (const f of own ? [own, ...others] : others) if (f.peerOnly) this.touch(f);
  }

  private touch(f: TxFacts): void {
    if (this.touched.has(f.tx.txid)) return;
    this.touched.add(f.tx.txid);
    for (const delta of txDeltas(f.tx, f.prevouts)) {
      this.bus.publish({ kind: 'address_touched', network: this.network, txid: f.tx.txid, tx: f.tx, delta, confirmed: false, prevouts: f.prevouts });
    }
  }
}

/** The outpoints `tx` spends that any of `others` spends too. */
function contested(tx: Transaction, others: readonly Transaction[]): Outpoint[] {
  const theirs = new Set(others.flatMap((o) => o.inputs.map((i) => `${i.prevTxid}:${i.prevVout}`)));
  return tx.inputs.filter((i) => theirs.has(`${i.prevTxid}:${i.prevVout}`)).map((i) => ({ txid: i.prevTxid, vout: i.prevVout }));
}
