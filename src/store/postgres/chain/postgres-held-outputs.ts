/**
 * The outputs of a PostgreSQL initial load's latest batches, held back by the encoder (the load's worker thread)
 * instead of written with their batch. A later batch spending one of them marks it here, so it is written once,
 * already spent, and the build has no pending spend left to resolve for it: resolving means a join on the txids and a
 * rewrite of the whole outputs table (on the 100k bench chain 1.9 s of a 6 s build), where SQLite updates in place.
 * The oldest batch's outputs leave once more than `capacity` txs are held, and all of them at the end of the load.
 *
 * Until written they exist only here: the load records in the transaction of each batch from which tx id on outputs
 * are still held (`from`), and a load resumed after a kill first rewinds to there (postgres-bulk-held.ts).
 *
 * Everything held is in typed arrays (columns per batch, txids in an open-addressing table of ids): a window of
 * 500,000 txs as JS arrays, bigints and a Map of txid strings kept the worker's collector busy and made the 1M-tx
 * load slower than writing every output at once (docs/benchmarks.md).
 */
import { StoreError } from '../../../core/domain/errors.js';
import type { OutputColumns } from '../../common/chain-writes/block-rows.js';

/**
 * About 150 bytes a tx (2.6 outputs of 32 bytes, the txid, 3-4 table slots of 12 bytes): ~75 MB. On the 20M-tx bench
 * chain most spends are of younger outputs.
 */
export const HELD_TXS = 500_000;

/** No spender (spentBy) or an empty table slot. */
const NONE = -1;
const INT64_MAX = (1n << 63n) - 1n;

/** One batch's outputs in id order; per tx, where its outputs start (`outStart[t]` .. `outStart[t + 1]`). */
export interface HeldBatch {
  readonly firstId: number;
  readonly txCount: number;
  /** The batch's txids as stored (32 bytes each), back to back. */
  readonly txids: Uint8Array;
  readonly outStart: Int32Array;
  readonly vout: Int32Array;
  readonly value: BigInt64Array;
  readonly script: Float64Array;
  /** The spender's tx id, or NONE. */
  readonly spentBy: Float64Array;
  readonly spentVin: Int32Array;
}

/** Each output of a batch in (id, vout) order, its spend null when unspent: what a COPY row takes. */
export function forEachHeldOutput(
  b: HeldBatch, row: (id: number, vout: number, value: bigint, script: number, spentBy: number | null, spentVin: number | null) => void,
): void {
  for (let t = 0; t < b.txCount; t++) {
    for (let at = b.outStart[t]!; at < b.outStart[t + 1]!; at++) {
      const spender = b.spentBy[at]!;
      row(b.firstId + t, b.vout[at]!, b.value[at]!, b.script[at]!, spender === NONE ? null : spender, spender === NONE ? null : b.spentVin[at]!);
    }
  }
}

export class HeldOutputs {
  private batches: HeldBatch[] = [];
  /** Tx ids by their txid's first four bytes (txids are hashes: uniform). Ids below `fromId` are stale (released). */
  private slots = new Float64Array(1024).fill(NONE);
  /** Per slot: the txid's next four bytes, to pass over most other txids without reading their batch. */
  private tags = new Uint32Array(1024);
  /** Slots not empty (live or stale): past half the table it is rebuilt. */
  private filled = 0;
  private heldTxs = 0;
  /** Outputs of txs from this id on are held; the next batch starts at `next`. */
  private fromId = 0;
  private next = 0;

  constructor(readonly capacity = HELD_TXS) {}

  get from(): number {
    return this.fromId;
  }

  /** Before a batch numbered from `firstId`: one that does not follow the batches held would write over what is held. */
  align(firstId: number): void {
    if (this.batches.length === 0) {
      // Ids in the table are stale only below the window's start: one starting lower again would revive them.
      if (firstId < this.next) this.rebuild(0);
      this.fromId = firstId;
      this.next = firstId;
    } else if (firstId !== this.next) {
      throw new StoreError(`outputs held up to tx ${this.next}, a batch numbered from ${firstId}: the load resumes from its last write`);
    }
  }

  /**
   * Marks the held output `prevTxid:prevVout` spent by `spender`'s input `vin`; returns its value, or null when no held
   * output can take it (not held, or no such output, or spent already: left to the build, which resolves or reports it).
   */
  spend(prevTxid: Uint8Array, prevVout: number, spender: number, vin: number): bigint | null {
    const slot = this.find(prevTxid);
    if (slot === NONE) return null;
    const id = this.slots[slot]!;
    const b = this.batchOf(id);
    const t = id - b.firstId;
    const at = b.outStart[t]! + prevVout;
    if (at >= b.outStart[t + 1]! || b.spentBy[at] !== NONE) return null;
    b.spentBy[at] = spender;
    b.spentVin[at] = vin;
    return b.value[at]!;
  }

  /** Holds a batch's outputs (in id order, every tx's from vout 0) with its txids. */
  add(firstId: number, txids: readonly Uint8Array[], outputs: OutputColumns): void {
    const batch = heldBatch(firstId, txids, outputs);
    this.batches.push(batch);
    this.heldTxs += batch.txCount;
    this.next = firstId + batch.txCount;
    if ((this.filled + batch.txCount) * 2 > this.slots.length) this.rebuild(this.heldTxs);
    for (let t = 0; t < batch.txCount; t++) this.insert(batch.txids.subarray(t * 32, t * 32 + 32), firstId + t);
  }

  /** The outputs to write now, oldest first: whole batches, until at most `capacity` txs are held (`all`: every one). */
  release(all = false): HeldBatch[] {
    const out: HeldBatch[] = [];
    while (this.batches.length > 0 && (all || this.heldTxs > this.capacity)) {
      const batch = this.batches.shift()!;
      this.heldTxs -= batch.txCount;
      out.push(batch);
    }
    // Their slots go stale by this alone (their ids are now below `from`), reused by later inserts or dropped by a rebuild.
    this.fromId = this.batches[0]?.firstId ?? this.next;
    return out;
  }

  /** The live slot of `txid`, or NONE. */
  private find(txid: Uint8Array): number {
    const mask = this.slots.length - 1;
    const tag = word(txid, 4);
    for (let s = word(txid, 0) & mask; ; s = (s + 1) & mask) {
      const id = this.slots[s]!;
      if (id === NONE) return NONE;
      if (this.tags[s] === tag && id >= this.fromId && this.txidIs(id, txid)) return s;
    }
  }

  /** A duplicate txid (BIP30) takes its live copy's slot: the newest copy is the one spent, as the build resolves it. */
  private insert(txid: Uint8Array, id: number): void {
    const mask = this.slots.length - 1;
    const tag = word(txid, 4);
    let reuse = NONE;
    let s = word(txid, 0) & mask;
    for (; ; s = (s + 1) & mask) {
      const held = this.slots[s]!;
      if (held === NONE) break;
      if (held < this.fromId) {
        if (reuse === NONE) reuse = s;
      } else if (this.tags[s] === tag && this.txidIs(held, txid)) {
        this.slots[s] = id;
        return;
      }
    }
    if (reuse === NONE) {
      reuse = s;
      this.filled++;
    }
    this.slots[reuse] = id;
    this.tags[reuse] = tag;
  }

  /** A table with room for `live` txs at a third of its size, with only the held ones. */
  private rebuild(live: number): void {
    let size = 1024;
    while (size < live * 3) size *= 2;
    this.slots = new Float64Array(size).fill(NONE);
    this.tags = new Uint32Array(size);
    this.filled = 0;
    for (const b of this.batches.slice(0, -1)) {
      for (let t = 0; t < b.txCount; t++) this.insert(b.txids.subarray(t * 32, t * 32 + 32), b.firstId + t);
    }
  }

  private txidIs(id: number, txid: Uint8Array): boolean {
    const b = this.batchOf(id);
    const at = (id - b.firstId) * 32;
    for (let i = 0; i < 32; i++) if (b.txids[at + i] !== txid[i]) return false;
    return true;
  }

  /** The held batch with tx `id` (batches are in id order). */
  private batchOf(id: number): HeldBatch {
    let lo = 0;
    let hi = this.batches.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.batches[mid]!.firstId <= id) lo = mid;
      else hi = mid - 1;
    }
    const b = this.batches[lo];
    if (b === undefined || id < b.firstId || id >= b.firstId + b.txCount) throw new StoreError(`tx ${id} is not held`);
    return b;
  }
}

/** Four bytes of a txid as a little-endian word. */
function word(txid: Uint8Array, at: number): number {
  return (txid[at]! | (txid[at + 1]! << 8) | (txid[at + 2]! << 16) | (txid[at + 3]! << 24)) >>> 0;
}

/** A batch's outputs and txids copied into typed arrays (the JS arrays go with the batch's other rows). */
function heldBatch(firstId: number, txids: readonly Uint8Array[], o: OutputColumns): HeldBatch {
  const count = o.id.length;
  const b: HeldBatch = {
    firstId, txCount: txids.length, txids: new Uint8Array(txids.length * 32), outStart: new Int32Array(txids.length + 1),
    vout: new Int32Array(count), value: new BigInt64Array(count), script: new Float64Array(count),
    spentBy: new Float64Array(count), spentVin: new Int32Array(count),
  };
  let at = 0;
  for (let t = 0; t < txids.length; t++) {
    b.txids.set(txids[t]!, t * 32);
    b.outStart[t] = at;
    while (at < count && o.id[at] === firstId + t) at++;
  }
  b.outStart[txids.length] = at;
  for (let i = 0; i < count; i++) {
    const value = o.value[i]!;
    // Node-validated values are at most a coin's MAX_MONEY (Dogecoin's 10^18 koinu): a wrap would be a wrong balance.
    if (value > INT64_MAX || value < 0n) throw new StoreError(`output value ${value} does not fit a signed 64-bit integer`);
    b.vout[i] = o.vout[i]!;
    b.value[i] = value;
    b.script[i] = o.script[i]!;
    b.spentBy[i] = o.spentBy[i] ?? NONE;
    b.spentVin[i] = o.spentVin[i] ?? 0;
  }
  return b;
}
