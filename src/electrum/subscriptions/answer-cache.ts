/**
 * The answers of get_balance, get_history and listunspent kept per scripthash (as their JSON text) until the change
 * feed that drives the status notifications (electrum-changes.ts) says the scripthash may have changed: wallets ask
 * the same scripthashes again on every reconnect. What drops an answer is what makes a status be recomputed
 * (status-subscriptions.ts): its script touched (a tx paying or spending it entered the mempool or was first seen in a
 * block), a reorg (all of them), and, for a scripthash a live mempool tx touched when the answer was read ("pending"),
 * any mempool tx leaving and any block (a confirmation, a replacement, an eviction, a height -1 becoming 0). A settled
 * scripthash's answer can only change through a tx touching its script, which comes as its own change first.
 *
 * An answer read while a change arrived is not kept (the generation put() is given is no longer current): its read may
 * predate the change. Bounded: at most `maxBytes` of answers (their text, their key and a fixed overhead each), the
 * least recently used dropped first; an answer larger than a sixteenth of the bound is not kept.
 */
import { scripthashOf } from './status-subscriptions.js';
import type { ElectrumChange } from './electrum-changes.js';

export type AnswerKind = 'balance' | 'history' | 'unspent';

/** What an entry costs beyond its text, in bytes: its key (64 characters), the map entry and the object. */
const ENTRY_BYTES = 256;

interface Entry {
  balance?: string;
  history?: string;
  unspent?: string;
  pending: boolean;
  bytes: number;
}

export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Set<string>();
  private used = 0;
  private changes = 0;
  /** Answers served from the cache, and asked of it in vain (for /metrics). */
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Taken before an answer is read, given back to put(): the answer is kept only if no change arrived between, since
   * the read may have seen the store before that change.
   */
  get generation(): number {
    return this.changes;
  }

  get(kind: AnswerKind, scripthash: string): string | undefined {
    const entry = this.entries.get(scripthash);
    const text = entry?.[kind];
    if (text === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Most recently used last: the eviction takes from the front.
    this.entries.delete(scripthash);
    this.entries.set(scripthash, entry!);
    return text;
  }

  /** Keeps `text` as the answer of `kind` for the scripthash; `pending`: a live mempool tx touched its script. */
  put(kind: AnswerKind, scripthash: string, text: string, pending: boolean, generation: number): void {
    if (generation !== this.changes || text.length > this.maxBytes / 16) return;
    let entry = this.entries.get(scripthash);
    if (!entry) {
      entry = { pending: false, bytes: ENTRY_BYTES };
      this.entries.set(scripthash, entry);
      this.used += ENTRY_BYTES;
    }
    const grown = text.length - (entry[kind]?.length ?? 0);
    entry[kind] = text;
    entry.bytes += grown;
    this.used += grown;
    if (pending && !entry.pending) {
      entry.pending = true;
      this.pending.add(scripthash);
    }
    for (const [oldest] of this.entries) {
      if (this.used <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  onChange(change: ElectrumChange): void {
    this.changes++;
    if (this.entries.size === 0) return;
    if (change.kind === 'scripts') {
      for (const script of change.scripts) this.drop(scripthashOf(script));
    } else if (change.kind === 'reorg') {
      this.entries.clear();
      this.pending.clear();
      this.used = 0;
    } else {
      for (const scripthash of [...this.pending]) this.drop(scripthash);
    }
  }

  private drop(scripthash: string): void {
    const entry = this.entries.get(scripthash);
    if (!entry) return;
    this.entries.delete(scripthash);
    this.pending.delete(scripthash);
    this.used -= entry.bytes;
  }
}
