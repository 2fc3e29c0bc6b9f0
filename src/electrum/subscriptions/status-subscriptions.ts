/**
 * Scripthash subscriptions of one network (blockchain.scripthash.subscribe): each subscribed scripthash's last known
 * status and its subscribers, recomputed when a change may have moved it (electrum-changes.ts) and announced to every
 * subscriber when it did. A scripthash is recomputed when one of its scripts is touched, when a mempool tx in its
 * status leaves the mempool, after a block when one of its mempool txs had an unconfirmed parent (height -1 may become
 * 0), and after a reorg (all of them). Marks coalesce: one recomputation per scripthash per turn of the event loop,
 * at most `concurrency` at once; a change arriving while one runs makes it run again.
 */
import { hash } from 'node:crypto';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { ScriptHashService } from '../../services/electrum/script-hash-service.js';
import { statusOf } from '../../services/electrum/script-status.js';
import { notificationMessage } from '../protocol/json-rpc.js';
import type { ElectrumChange } from './electrum-changes.js';

export interface StatusSubscriber {
  /** Writes a notification (a whole JSON-RPC message) to the subscriber's connection. */
  notify(message: string): void;
}

interface Entry {
  readonly scripthash: string;
  readonly subscribers: Set<StatusSubscriber>;
  /** undefined: never computed. */
  status: string | null | undefined;
  mempoolTxids: readonly string[];
  unconfirmedParent: boolean;
  running: Promise<string | null> | null;
  again: boolean;
  /** When the first change not yet announced arrived (ms, performance.now), for the notification latency. */
  changedAt: number | null;
}

export interface StatusSubscriptionsOptions {
  readonly concurrency?: number;
  /** Told how long after its change each notification went out (seconds). */
  readonly onNotified?: (latencySeconds: number, subscribers: number) => void;
}

/** Electrum's scripthash of a script: sha256, byte-reversed, in hex. */
export function scripthashOf(script: Uint8Array): string {
  return Buffer.from(hash('sha256', script, 'buffer')).reverse().toString('hex');
}

export class StatusSubscriptions {
  private readonly entries = new Map<string, Entry>();
  private readonly byTxid = new Map<string, Set<Entry>>();
  private readonly marked = new Set<Entry>();
  private flushing = false;
  private readonly concurrency: number;

  constructor(private readonly service: ScriptHashService, private readonly logger: Logger, private readonly options: StatusSubscriptionsOptions = {}) {
    this.concurrency = options.concurrency ?? 16;
  }

  /** Scripthashes with at least one subscriber. */
  get size(): number {
    return this.entries.size;
  }

  /** Adds the subscriber and answers the current status (computed unless known and unchanged since). */
  async subscribe(subscriber: StatusSubscriber, scripthash: string): Promise<string | null> {
    let entry = this.entries.get(scripthash);
    if (!entry) {
      entry = { scripthash, subscribers: new Set(), status: undefined, mempoolTxids: [], unconfirmedParent: false, running: null, again: false, changedAt: null };
      this.entries.set(scripthash, entry);
    }
    entry.subscribers.add(subscriber);
    try {
      if (entry.status !== undefined && !entry.running && !this.marked.has(entry)) return entry.status;
      return await this.compute(entry);
    } catch (error) {
      this.unsubscribe(subscriber, scripthash);
      throw error;
    }
  }

  unsubscribe(subscriber: StatusSubscriber, scripthash: string): boolean {
    const entry = this.entries.get(scripthash);
    if (!entry?.subscribers.delete(subscriber)) return false;
    if (entry.subscribers.size === 0) this.forget(entry);
    return true;
  }

  onChange(change: ElectrumChange): void {
    if (this.entries.size === 0) return;
    if (change.kind === 'scripts') {
      for (const script of change.scripts) {
        const entry = this.entries.get(scripthashOf(script));
        if (entry) this.mark(entry);
      }
    } else if (change.kind === 'tx-gone') {
      for (const entry of this.byTxid.get(change.txid) ?? []) this.mark(entry);
    } else if (change.kind === 'block') {
      for (const entry of this.entries.values()) if (entry.unconfirmedParent) this.mark(entry);
    } else {
      for (const entry of this.entries.values()) this.mark(entry);
    }
  }

  private forget(entry: Entry): void {
    this.entries.delete(entry.scripthash);
    this.marked.delete(entry);
    this.index(entry, []);
  }

  private index(entry: Entry, txids: readonly string[]): void {
    for (const txid of entry.mempoolTxids) {
      const set = this.byTxid.get(txid);
      set?.delete(entry);
      if (set?.size === 0) this.byTxid.delete(txid);
    }
    entry.mempoolTxids = txids;
    for (const txid of txids) {
      let set = this.byTxid.get(txid);
      if (!set) this.byTxid.set(txid, (set = new Set()));
      set.add(entry);
    }
  }

  private mark(entry: Entry): void {
    entry.changedAt ??= performance.now();
    if (entry.running) {
      entry.again = true;
      return;
    }
    this.marked.add(entry);
    if (!this.flushing) {
      this.flushing = true;
      setImmediate(() => void this.flush());
    }
  }

  private async flush(): Promise<void> {
    try {
      while (this.marked.size > 0) {
        const batch = [...this.marked].slice(0, this.concurrency);
        for (const entry of batch) this.marked.delete(entry);
        await Promise.all(batch.map((entry) => this.compute(entry).catch((error: unknown) => {
          // Kept as it was; the next change tries again (the store or node may be back by then).
          this.logger.warn('electrum: scripthash status not recomputed', { scripthash: entry.scripthash, error: (error as Error).message });
        })));
      }
    } finally {
      this.flushing = false;
    }
  }

  /** The status now; announced to the subscribers when it differs from the one they have. */
  private compute(entry: Entry): Promise<string | null> {
    if (entry.running) return entry.running;
    entry.running = (async () => {
      let status: string | null;
      do {
        entry.again = false;
        const items = await this.service.history(entry.scripthash);
        status = statusOf(items);
        if (this.entries.get(entry.scripthash) === entry) {
          this.index(entry, items.filter((i) => i.height <= 0).map((i) => i.tx_hash));
          entry.unconfirmedParent = items.some((i) => i.height < 0);
        }
      } while (entry.again);
      const before = entry.status;
      entry.status = status;
      if (before !== undefined && before !== status) this.announce(entry, status);
      entry.changedAt = null;
      return status;
    })().finally(() => {
      entry.running = null;
    });
    return entry.running;
  }

  private announce(entry: Entry, status: string | null): void {
    const message = notificationMessage('blockchain.scripthash.subscribe', JSON.stringify([entry.scripthash, status]));
    for (const subscriber of entry.subscribers) subscriber.notify(message);
    if (entry.changedAt !== null) this.options.onNotified?.((performance.now() - entry.changedAt) / 1000, entry.subscribers.size);
  }
}
