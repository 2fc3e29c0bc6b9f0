/**
 * Transactions relayed by peers that our node's mempool does not hold: the other side of a double spend, or a tx
 * our node has not received (yet). Indexed by the outpoints they spend, so a conflicting spend is found in one
 * lookup. Bounded by count and bytes (oldest out first) and by age; a tx leaves as soon as our index holds it.
 */
import type { Outpoint, PeerOnlyTx, PrevoutInfo, Sats, Transaction } from '../../core/index.js';

interface PoolEntry {
  tx: Transaction;
  prevouts: readonly (PrevoutInfo | null)[];
  fee: Sats | null;
  firstSeenMs: number;
  dead: boolean;
}

export const DEFAULT_POOL_TXS = 20_000;
export const DEFAULT_POOL_BYTES = 64 * 1024 * 1024;
export const DEFAULT_POOL_MAX_AGE_MS = 24 * 3600_000;

export const outpointKey = (o: Outpoint): string => `${o.txid}:${o.vout}`;

export class PeerTxPool {
  private readonly entries = new Map<string, PoolEntry>();
  private readonly spenders = new Map<string, string>();
  private bytes = 0;

  constructor(
    private readonly maxTxs = DEFAULT_POOL_TXS,
    private readonly maxBytes = DEFAULT_POOL_BYTES,
    private readonly maxAgeMs = DEFAULT_POOL_MAX_AGE_MS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get byteSize(): number {
    return this.bytes;
  }

  has(txid: string): boolean {
    return this.entries.has(txid);
  }

  get(txid: string): PeerOnlyTx | null {
    return this.entries.get(txid) ?? null;
  }

  txids(): string[] {
    return [...this.entries.keys()];
  }

  /** The pool tx spending this outpoint, if any (the first one added when several do). */
  spenderOf(outpoint: Outpoint): string | null {
    return this.spenders.get(outpointKey(outpoint)) ?? null;
  }

  /** An output of a pool tx (for children whose parent is known only from peers). */
  outputOf(outpoint: Outpoint): PrevoutInfo | null {
    const output = this.entries.get(outpoint.txid)?.tx.outputs[outpoint.vout];
    return output ? { txid: outpoint.txid, vout: outpoint.vout, value: output.value, script: output.script } : null;
  }

  /** Adds a tx; returns the txids evicted to stay within bounds. */
  add(tx: Transaction, prevouts: readonly (PrevoutInfo | null)[], fee: Sats | null, firstSeenMs: number): string[] {
    if (this.entries.has(tx.txid)) return [];
    this.entries.set(tx.txid, { tx, prevouts, fee, firstSeenMs, dead: false });
    this.bytes += tx.size;
    for (const input of tx.inputs) {
      const key = outpointKey({ txid: input.prevTxid, vout: input.prevVout });
      if (!this.spenders.has(key)) this.spenders.set(key, tx.txid);
    }
    const evicted: string[] = [];
    while ((this.entries.size > this.maxTxs || this.bytes > this.maxBytes) && this.entries.size > 1) {
      const oldest = this.entries.keys().next().value!;
      this.remove(oldest);
      evicted.push(oldest);
    }
    return evicted;
  }

  markDead(txid: string): void {
    const entry = this.entries.get(txid);
    if (entry) entry.dead = true;
  }

  remove(txid: string): void {
    const entry = this.entries.get(txid);
    if (!entry) return;
    this.entries.delete(txid);
    this.bytes -= entry.tx.size;
    for (const input of entry.tx.inputs) {
      const key = outpointKey({ txid: input.prevTxid, vout: input.prevVout });
      if (this.spenders.get(key) === txid) this.spenders.delete(key);
    }
  }

  /** Removes txs first seen longer ago than the maximum age; returns them. */
  prune(nowMs: number): string[] {
    const old: string[] = [];
    for (const [txid, entry] of this.entries) {
      if (nowMs - entry.firstSeenMs <= this.maxAgeMs) break;
      old.push(txid);
    }
    for (const txid of old) this.remove(txid);
    return old;
  }
}
