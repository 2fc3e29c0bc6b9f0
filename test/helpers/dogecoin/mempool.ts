/**
 * The stand-in's transaction memory pool (txmempool.cpp): entries in arrival order, which outpoint each spends,
 * ancestor/descendant walks, and the removals a block causes (its own txs, and conflicting spends with their
 * descendants). Entry fields are what entryToJSON prints in 1.14.
 */
import type { Transaction, TxOutput } from '../../../src/core/domain/chain-types.js';
import { outpointKey } from './chain-state.js';

export interface PoolEntry {
  readonly tx: Transaction;
  readonly fee: bigint;
  /** Unix seconds the tx entered the pool. */
  readonly time: number;
  /** Chain height when it entered. */
  readonly height: number;
  /** GetTxSize: the serialized size (no witness on Dogecoin). */
  readonly size: number;
  /** Priority when it entered (DEPRECATED in 0.14 but still printed). */
  readonly startingPriority: number;
  /** Value of its confirmed inputs: priority grows by this per block (CTxMemPoolEntry::inChainInputValue). */
  readonly inChainValue: bigint;
  /** The priority size divisor (CalculateModifiedSize). */
  readonly modifiedSize: number;
}

export class Mempool {
  readonly entries = new Map<string, PoolEntry>();
  /** Spent outpoint → the mempool txid spending it (mapNextTx). */
  readonly spends = new Map<string, string>();

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    let n = 0;
    for (const e of this.entries.values()) n += e.size;
    return n;
  }

  add(entry: PoolEntry): void {
    this.entries.set(entry.tx.txid, entry);
    for (const input of entry.tx.inputs) this.spends.set(outpointKey(input.prevTxid, input.prevVout), entry.tx.txid);
  }

  /** An output of a mempool tx (whether or not something in the pool spends it). */
  output(txid: string, vout: number): TxOutput | null {
    return this.entries.get(txid)?.tx.outputs[vout] ?? null;
  }

  /** In-pool parents, sorted as entryToJSON's std::set<string> prints them. */
  parents(txid: string): string[] {
    const tx = this.entries.get(txid)?.tx;
    if (!tx) return [];
    return [...new Set(tx.inputs.map((i) => i.prevTxid).filter((p) => this.entries.has(p)))].sort();
  }

  children(txid: string): string[] {
    const tx = this.entries.get(txid)?.tx;
    if (!tx) return [];
    const out = new Set<string>();
    tx.outputs.forEach((_o, vout) => {
      const child = this.spends.get(outpointKey(txid, vout));
      if (child) out.add(child);
    });
    return [...out];
  }

  /** The tx and every in-pool ancestor. */
  ancestors(txid: string): Set<string> {
    return this.#walk(txid, (t) => this.parents(t));
  }

  /** The tx and every in-pool descendant. */
  descendants(txid: string): Set<string> {
    return this.#walk(txid, (t) => this.children(t));
  }

  /** Mempool txs spending any outpoint `tx` spends. */
  conflictsOf(tx: Transaction): Set<string> {
    const out = new Set<string>();
    for (const input of tx.inputs) {
      const other = this.spends.get(outpointKey(input.prevTxid, input.prevVout));
      if (other !== undefined && other !== tx.txid) out.add(other);
    }
    return out;
  }

  /** Removes exactly these txs (callers pass whole descendant sets when children must go too). */
  remove(txids: Iterable<string>): PoolEntry[] {
    const removed: PoolEntry[] = [];
    for (const txid of txids) {
      const entry = this.entries.get(txid);
      if (!entry) continue;
      this.entries.delete(txid);
      for (const input of entry.tx.inputs) {
        const key = outpointKey(input.prevTxid, input.prevVout);
        if (this.spends.get(key) === txid) this.spends.delete(key);
      }
      removed.push(entry);
    }
    return removed;
  }

  /** removeRecursive: the tx and its descendants. */
  removeWithDescendants(txid: string): PoolEntry[] {
    return this.remove(this.descendants(txid));
  }

  /** removeForBlock: the block's txs leave (their children stay), then conflicting spends go with their descendants. */
  removeForBlock(txs: readonly Transaction[]): { confirmed: PoolEntry[]; conflicted: PoolEntry[] } {
    const confirmed = this.remove(txs.map((t) => t.txid));
    const conflicted: PoolEntry[] = [];
    for (const tx of txs) {
      if (tx.isCoinbase) continue;
      for (const other of this.conflictsOf(tx)) conflicted.push(...this.removeWithDescendants(other));
    }
    return { confirmed, conflicted };
  }

  #walk(start: string, next: (txid: string) => string[]): Set<string> {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length > 0) {
      const txid = stack.pop()!;
      if (seen.has(txid) || !this.entries.has(txid)) continue;
      seen.add(txid);
      stack.push(...next(txid));
    }
    return seen;
  }
}
