/**
 * The mempool as the projection sees it (mempool-projection.ts): a graph of txs by index (own fee, vsize, weight;
 * in-mempool parents and children), and each tx's ancestor package (itself with its not-yet-included ancestors),
 * whose figures are kept up to date as packages are included. Typed arrays indexed by tx: the projection of a
 * 50,000-tx mempool touches these millions of times.
 */
import type { MempoolSourceEntry } from '../../../core/sources/mempool-source.js';
import type { Steps } from './time-sliced.js';

/** Txs handled between pause points of a pass (time-sliced.ts): a few hundred microseconds of work. */
export const PAUSE_EVERY = 256;

export class TxGraph {
  readonly count: number;
  /** Fees are numbers here: a fee (and any package's sum) is far below 2^53 base units. */
  readonly fee: Float64Array;
  readonly vsize: Float64Array;
  readonly weight: Float64Array;
  /** Serialized size (the node's, else the vsize). */
  readonly size: Float64Array;
  readonly parents: number[][];
  readonly children: number[][];

  private constructor(n: number) {
    this.count = n;
    this.fee = new Float64Array(n);
    this.vsize = new Float64Array(n);
    this.weight = new Float64Array(n);
    this.size = new Float64Array(n);
    this.parents = new Array<number[]>(n);
    this.children = Array.from({ length: n }, () => []);
  }

  /** The graph of `entries`, pausing every PAUSE_EVERY txs. */
  static *build(entries: readonly MempoolSourceEntry[]): Steps<TxGraph> {
    const n = entries.length;
    const g = new TxGraph(n);
    const index = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      index.set(entries[i]!.txid, i);
      if (i % PAUSE_EVERY === PAUSE_EVERY - 1) yield;
    }
    for (let i = 0; i < n; i++) {
      if (i % PAUSE_EVERY === PAUSE_EVERY - 1) yield;
      const e = entries[i]!;
      g.fee[i] = Number(e.fee);
      g.vsize[i] = e.vsize;
      g.weight[i] = e.weight;
      g.size[i] = e.size ?? e.vsize;
      g.parents[i] = [];
      for (const d of e.depends) {
        const p = index.get(d);
        if (p !== undefined && p !== i) {
          g.parents[i]!.push(p);
          g.children[p]!.push(i);
        }
      }
    }
    return g;
  }
}

export class Packages {
  /** The package figures of each tx (itself and its not-included ancestors). */
  readonly fee: Float64Array;
  readonly vsize: Float64Array;
  readonly weight: Float64Array;
  readonly included: Uint8Array;
  /** Bumped whenever a tx's package figures change: a queued entry with an older version is stale. */
  readonly version: Int32Array;
  /** Walk marks: a tx is visited in walk `mark` when stamp[tx] === mark (no per-walk set). */
  private readonly stamp: Int32Array;
  private stampNo = 0;

  private constructor(private readonly g: TxGraph) {
    const n = g.count;
    this.fee = new Float64Array(n);
    this.vsize = new Float64Array(n);
    this.weight = new Float64Array(n);
    this.included = new Uint8Array(n);
    this.version = new Int32Array(n);
    this.stamp = new Int32Array(n).fill(-1);
  }

  /** Every tx's package figures, pausing every PAUSE_EVERY txs. */
  static *build(g: TxGraph): Steps<Packages> {
    const p = new Packages(g);
    for (let i = 0; i < g.count; i++) {
      if (i % PAUSE_EVERY === PAUSE_EVERY - 1) yield;
      for (const t of p.members(i)) {
        p.fee[i] = p.fee[i]! + g.fee[t]!;
        p.vsize[i] = p.vsize[i]! + g.vsize[t]!;
        p.weight[i] = p.weight[i]! + g.weight[t]!;
      }
    }
    return p;
  }

  /** The package's fee rate (base units per vbyte). */
  rate(i: number): number {
    return this.fee[i]! / this.vsize[i]!;
  }

  /** The package of i: its not-included ancestors and i, parents before children. */
  members(i: number): number[] {
    const mark = this.stampNo++;
    const order: number[] = [];
    const visit = (t: number): void => {
      this.stamp[t] = mark;
      for (const p of this.g.parents[t]!) if (!this.included[p] && this.stamp[p] !== mark) visit(p);
      order.push(t);
    };
    visit(i);
    return order;
  }

  /**
   * Marks the package's txs included. Their descendants no longer carry them as ancestors: each included tx is
   * subtracted once from each of its not-included descendants, whose versions are bumped. Returns those descendants.
   */
  include(pkg: readonly number[]): number[] {
    const { g } = this;
    for (const t of pkg) this.included[t] = 1;
    const mark = this.stampNo++;
    const touched: number[] = [];
    for (const t of pkg) this.forEachDescendant(t, (c) => {
      this.fee[c] = this.fee[c]! - g.fee[t]!;
      this.vsize[c] = this.vsize[c]! - g.vsize[t]!;
      this.weight[c] = this.weight[c]! - g.weight[t]!;
      if (this.stamp[c] !== mark) {
        this.stamp[c] = mark;
        touched.push(c);
      }
    });
    for (const c of touched) this.version[c]!++;
    return touched;
  }

  /**
   * Calls fn once for every not-included descendant of t. The walk goes through included descendants too (they
   * are members of the package just included): their own descendants still carry t as an ancestor.
   */
  private forEachDescendant(t: number, fn: (c: number) => void): void {
    const seen = new Set<number>();
    const stack = [...this.g.children[t]!];
    while (stack.length > 0) {
      const c = stack.pop()!;
      if (seen.has(c)) continue;
      seen.add(c);
      if (!this.included[c]) fn(c);
      stack.push(...this.g.children[c]!);
    }
  }
}
