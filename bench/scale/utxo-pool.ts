/**
 * The generator's unspent outputs, kept in creation order (struct of arrays, no object per output) so that a spend
 * can pick an output of a given age: `blockStart[h]` is the first slot created at height h. Spent slots become
 * tombstones, skipped in near O(1) by two union-find chains (the next and the previous live slot, path splitting),
 * and squeezed out once they outnumber the live ones (amortised O(1) per spend).
 */
import type { Prng } from './prng.js';

const ALIVE = 1;
const COINBASE = 2;

export class UtxoPool {
  private cap: number;
  /** Slots in use (live and tombstones). */
  private size = 0;
  live = 0;
  txids: Uint8Array;
  vouts: Uint32Array;
  values: Float64Array;
  addrs: Uint32Array;
  heights: Uint32Array;
  /** Creation number of each output (0, 1, 2, ... over the whole chain): spend distances in outputs. */
  seqs: Float64Array;
  /** Outputs ever added. */
  created = 0;
  private flags: Uint8Array;
  /** nextLive[s] === s for a live slot; else a slot after s to continue from. */
  private nextLive: Int32Array;
  /** The same towards older slots; -1 past the first. */
  private prevLive: Int32Array;
  /** First slot of each height's outputs (blockStart[h + 1] ends height h once h + 1 has begun). */
  private blockStart = new Int32Array(1024);
  private currentHeight = -1;

  constructor(
    private readonly coinbaseMaturity: number,
    capacity = 1 << 16,
  ) {
    this.cap = capacity;
    this.txids = new Uint8Array(capacity * 32);
    this.vouts = new Uint32Array(capacity);
    this.values = new Float64Array(capacity);
    this.addrs = new Uint32Array(capacity);
    this.heights = new Uint32Array(capacity);
    this.seqs = new Float64Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.nextLive = new Int32Array(capacity + 1);
    this.prevLive = new Int32Array(capacity + 1);
  }

  /** Outputs added from now on belong to `height` (heights start at 0 and increase by one). */
  beginHeight(height: number): void {
    if (this.live < this.size - this.live) this.compact();
    if (height + 2 > this.blockStart.length) {
      const next = new Int32Array(this.blockStart.length * 2);
      next.set(this.blockStart);
      this.blockStart = next;
    }
    this.currentHeight = height;
    this.blockStart[height] = this.size;
  }

  add(txid: Uint8Array, vout: number, value: number, addr: number, coinbase: boolean): void {
    if (this.size === this.cap) this.resize(this.cap * 2);
    const s = this.size++;
    this.txids.set(txid, s * 32);
    this.vouts[s] = vout;
    this.values[s] = value;
    this.addrs[s] = addr;
    this.heights[s] = this.currentHeight;
    this.seqs[s] = this.created++;
    this.flags[s] = ALIVE | (coinbase ? COINBASE : 0);
    this.nextLive[s] = s;
    this.prevLive[s] = s;
    this.nextLive[s + 1] = s + 1;
    this.live++;
  }

  spend(slot: number): void {
    this.flags[slot] = this.flags[slot]! & ~ALIVE;
    this.nextLive[slot] = slot + 1;
    this.prevLive[slot] = slot - 1;
    this.live--;
  }

  /**
   * A spendable output created `age` blocks before the current height (0: earlier in the current block), or -1 when
   * that height has none left: random slots of the height first, then the nearest live one inside its range.
   */
  pickAt(prng: Prng, age: number): number {
    if (this.live === 0 || age > this.currentHeight) return -1;
    const h = this.currentHeight - age;
    const from = this.blockStart[h]!;
    const to = h === this.currentHeight ? this.size : this.blockStart[h + 1]!;
    if (to <= from) return -1;
    for (let i = 0; i < 4; i++) {
      const slot = from + prng.below(to - from);
      if (this.spendable(slot)) return slot;
    }
    const start = from + prng.below(to - from);
    for (let s = this.liveFrom(start); s >= 0 && s < to; s = this.liveFrom(s + 1)) if (this.spendable(s)) return s;
    for (let s = this.liveUntil(start - 1); s >= from; s = this.liveUntil(s - 1)) if (this.spendable(s)) return s;
    return -1;
  }

  /**
   * A uniformly drawn spendable output older than `minAge` blocks ("an old coin wakes up": in proportion to how many
   * old coins there are), or -1 when the probes miss. Most slots there are live: compaction keeps tombstones below
   * half of all slots, and old heights hold few.
   */
  pickOld(prng: Prng, minAge: number): number {
    const h = this.currentHeight - minAge;
    const end = h > 0 ? this.blockStart[h]! : 0;
    for (let i = 0; end > 0 && i < 8; i++) {
      const slot = prng.below(end);
      if (this.spendable(slot)) return slot;
    }
    return -1;
  }

  /** The spendable output nearest to a random slot (the last resort when drawn ages find nothing), or -1. */
  pickAny(prng: Prng): number {
    if (this.live === 0) return -1;
    const start = prng.below(this.size);
    for (let s = this.liveFrom(start); s >= 0; s = this.liveFrom(s + 1)) if (this.spendable(s)) return s;
    for (let s = this.liveUntil(start - 1); s >= 0; s = this.liveUntil(s - 1)) if (this.spendable(s)) return s;
    return -1;
  }

  /** Alive, and a coinbase only once mature. */
  private spendable(slot: number): boolean {
    const f = this.flags[slot]!;
    if ((f & ALIVE) === 0) return false;
    return (f & COINBASE) === 0 || this.heights[slot]! + this.coinbaseMaturity <= this.currentHeight;
  }

  /** The first live slot at or after s, or -1. */
  private liveFrom(s: number): number {
    const next = this.nextLive;
    while (s < this.size && next[s] !== s) {
      const n = next[s]!;
      next[s] = next[n]!;
      s = n;
    }
    return s < this.size ? s : -1;
  }

  /** The last live slot at or before s, or -1. */
  private liveUntil(s: number): number {
    const prev = this.prevLive;
    while (s >= 0 && prev[s] !== s) {
      const p = prev[s]!;
      if (p >= 0) prev[s] = prev[p]!;
      s = p;
    }
    return s;
  }

  private resize(cap: number): void {
    const txids = new Uint8Array(cap * 32);
    txids.set(this.txids.subarray(0, this.size * 32));
    this.txids = txids;
    this.vouts = copyInto(new Uint32Array(cap), this.vouts, this.size);
    this.values = copyInto(new Float64Array(cap), this.values, this.size);
    this.addrs = copyInto(new Uint32Array(cap), this.addrs, this.size);
    this.heights = copyInto(new Uint32Array(cap), this.heights, this.size);
    this.seqs = copyInto(new Float64Array(cap), this.seqs, this.size);
    this.flags = copyInto(new Uint8Array(cap), this.flags, this.size);
    this.nextLive = copyInto(new Int32Array(cap + 1), this.nextLive, this.size + 1);
    this.prevLive = copyInto(new Int32Array(cap + 1), this.prevLive, this.size + 1);
    this.cap = cap;
  }

  /** Drops tombstones, keeping creation order, and renumbers blockStart. */
  private compact(): void {
    let w = 0;
    let h = 0;
    for (let s = 0; s < this.size; s++) {
      const height = this.heights[s]!;
      while (h <= height) this.blockStart[h++] = w;
      if ((this.flags[s]! & ALIVE) === 0) continue;
      if (w !== s) {
        this.txids.copyWithin(w * 32, s * 32, s * 32 + 32);
        this.vouts[w] = this.vouts[s]!;
        this.values[w] = this.values[s]!;
        this.addrs[w] = this.addrs[s]!;
        this.heights[w] = height;
        this.seqs[w] = this.seqs[s]!;
        this.flags[w] = this.flags[s]!;
      }
      w++;
    }
    while (h <= this.currentHeight + 1) this.blockStart[h++] = w;
    this.size = w;
    for (let i = 0; i <= w; i++) {
      this.nextLive[i] = i;
      this.prevLive[i] = i;
    }
    if (this.cap > 1 << 16 && w * 4 < this.cap) this.resize(Math.max(1 << 16, w * 2));
  }
}

function copyInto<T extends Uint32Array | Int32Array | Float64Array | Uint8Array>(target: T, source: T, n: number): T {
  target.set(source.subarray(0, n) as never);
  return target;
}
