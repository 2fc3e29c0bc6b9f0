import type { MempoolSourceEntry } from '../../core/sources/mempool-source.js';

/** Core's default leaves this much weight of every block for the coinbase (DEFAULT_BLOCK_MAX_WEIGHT = limit - 4000). */
export const COINBASE_RESERVED_WEIGHT = 4_000;
/** Like Core's miner: once a block is within this much of full, give up after MAX_FAILURES packages that did not fit. */
const NEARLY_FULL = 4_000;
const MAX_FAILURES = 1_000;

export interface ProjectedBlock {
  /** 1 = the next block. */
  readonly blockNum: number;
  /** Effective (ancestor package) fee rates of the block's txs, base units per vbyte, 2 decimals. */
  readonly minFeeRate: number;
  readonly maxFeeRate: number;
  readonly medianFeeRate: number;
  /** The rate a new tx needs to enter this block: its lowest rate when the block is full, else the node's mempool minimum. */
  readonly minFeeRatePossible: number;
  readonly weight: number;
  readonly size: number;
  readonly numTxs: number;
}

export interface ProjectionOptions {
  readonly maxBlockWeight: number;
  readonly blocks: number;
  /** The mempool's entry fee rate (base units per vbyte), for blocks with room to spare. */
  readonly minFeeRate: number;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/**
 * Always `blocks` items (the spec: "array of 6 mempool block items for the next 6 blocks"); blocks the mempool
 * does not fill have no txs, zero size, weight and rates. Fills them greedily by ancestor-package fee rate, as Core's block assembler does: the best
 * package (a tx with its not-yet-included mempool ancestors) goes in whole if it fits the weight limit,
 * else it waits for the next block; including a package lowers the package figures of its descendants.
 * Fees are numbers here: a fee (and any package's sum) is far below 2^53 base units.
 * Ties break by txid so the projection is deterministic.
 */
export function projectMempoolBlocks(entries: readonly MempoolSourceEntry[], options: ProjectionOptions): ProjectedBlock[] {
  const n = entries.length;
  const index = new Map<string, number>();
  entries.forEach((e, i) => index.set(e.txid, i));
  const fee = new Float64Array(n);
  const vsize = new Float64Array(n);
  const weight = new Float64Array(n);
  const parents: number[][] = new Array<number[]>(n);
  const children: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < n; i++) {
    const e = entries[i]!;
    fee[i] = Number(e.fee);
    vsize[i] = e.vsize;
    weight[i] = e.weight;
    parents[i] = [];
    for (const d of e.depends) {
      const p = index.get(d);
      if (p !== undefined && p !== i) {
        parents[i]!.push(p);
        children[p]!.push(i);
      }
    }
  }
  const rank = rankByTxid(entries);
  const included = new Uint8Array(n);
  const stamp = new Int32Array(n).fill(-1);
  let stampNo = 0;
  const ancFee = new Float64Array(n);
  const ancVsize = new Float64Array(n);
  const ancWeight = new Float64Array(n);

  /** Not-included ancestors of i (i included), parents before children. */
  const packageOf = (i: number): number[] => {
    const mark = stampNo++;
    const order: number[] = [];
    const visit = (t: number): void => {
      stamp[t] = mark;
      for (const p of parents[t]!) if (!included[p] && stamp[p] !== mark) visit(p);
      order.push(t);
    };
    visit(i);
    return order;
  };

  for (let i = 0; i < n; i++) {
    for (const t of packageOf(i)) {
      ancFee[i] = ancFee[i]! + fee[t]!;
      ancVsize[i] = ancVsize[i]! + vsize[t]!;
      ancWeight[i] = ancWeight[i]! + weight[t]!;
    }
  }

  const heap = new PackageHeap(rank);
  const version = new Int32Array(n);
  for (let i = 0; i < n; i++) heap.push(ancFee[i]! / ancVsize[i]!, i, 0);

  const budget = options.maxBlockWeight - COINBASE_RESERVED_WEIGHT;
  const blocks: ProjectedBlock[] = [];
  for (let blockNum = 1; blockNum <= options.blocks && heap.size > 0; blockNum++) {
    let blockWeight = 0;
    let blockSize = 0;
    const rates: number[] = [];
    const deferred: { tx: number; version: number }[] = [];
    let failures = 0;
    while (heap.size > 0) {
      const top = heap.pop();
      if (included[top.tx] || version[top.tx] !== top.version) continue;
      const i = top.tx;
      if (blockWeight + ancWeight[i]! > budget) {
        deferred.push({ tx: i, version: top.version });
        if (++failures > MAX_FAILURES && blockWeight > budget - NEARLY_FULL) break;
        continue;
      }
      const rate = ancFee[i]! / ancVsize[i]!;
      const pkg = packageOf(i);
      for (const t of pkg) {
        included[t] = 1;
        blockWeight += weight[t]!;
        blockSize += entries[t]!.size ?? vsize[t]!;
        rates.push(rate);
      }
      // Descendants of the package no longer carry these ancestors: lower their package figures and requeue them.
      const mark = stampNo++;
      const touched: number[] = [];
      // Each included tx is subtracted once from each of its not-included descendants.
      for (const t of pkg) forEachDescendant(t, children, included, (c) => {
        ancFee[c] = ancFee[c]! - fee[t]!;
        ancVsize[c] = ancVsize[c]! - vsize[t]!;
        ancWeight[c] = ancWeight[c]! - weight[t]!;
        if (stamp[c] !== mark) {
          stamp[c] = mark;
          touched.push(c);
        }
      });
      for (const c of touched) heap.push(ancFee[c]! / ancVsize[c]!, c, ++version[c]!);
    }
    // A deferred tx whose figures changed meanwhile is already queued under its newer version.
    for (const d of deferred) if (!included[d.tx] && version[d.tx] === d.version) heap.push(ancFee[d.tx]! / ancVsize[d.tx]!, d.tx, d.version);
    if (rates.length === 0) break; // nothing left that fits: the rest are empty blocks
    rates.sort((a, b) => a - b);
    const mid = rates.length >> 1;
    const median = rates.length % 2 === 1 ? rates[mid]! : (rates[mid - 1]! + rates[mid]!) / 2;
    const full = blockWeight > budget - NEARLY_FULL;
    blocks.push({
      blockNum,
      minFeeRate: round2(rates[0]!),
      maxFeeRate: round2(rates[rates.length - 1]!),
      medianFeeRate: round2(median),
      minFeeRatePossible: round2(full ? rates[0]! : options.minFeeRate),
      weight: blockWeight,
      size: blockSize,
      numTxs: rates.length,
    });
  }
  while (blocks.length < options.blocks) blocks.push(emptyBlock(blocks.length + 1, options.minFeeRate));
  return blocks;
}

/** A block the mempool does not fill: no txs, and any tx paying the mempool's minimum rate would enter it. */
function emptyBlock(blockNum: number, minFeeRate: number): ProjectedBlock {
  return { blockNum, minFeeRate: 0, maxFeeRate: 0, medianFeeRate: 0, minFeeRatePossible: round2(minFeeRate), weight: 0, size: 0, numTxs: 0 };
}

/**
 * Calls fn once for every not-included descendant of t. The walk goes through included descendants too (they
 * are members of the package just included): their own descendants still carry t as an ancestor.
 */
function forEachDescendant(t: number, children: readonly number[][], included: Uint8Array, fn: (c: number) => void): void {
  const seen = new Set<number>();
  const stack = [...children[t]!];
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (seen.has(c)) continue;
    seen.add(c);
    if (!included[c]) fn(c);
    stack.push(...children[c]!);
  }
}

function rankByTxid(entries: readonly MempoolSourceEntry[]): Int32Array {
  const order = entries.map((_, i) => i).sort((a, b) => (entries[a]!.txid < entries[b]!.txid ? -1 : entries[a]!.txid > entries[b]!.txid ? 1 : 0));
  const rank = new Int32Array(entries.length);
  order.forEach((i, r) => (rank[i] = r));
  return rank;
}

/** Max-heap on (rate desc, txid rank asc); stale entries are skipped by the caller through `version`. */
class PackageHeap {
  private rates: number[] = [];
  private txs: number[] = [];
  private versions: number[] = [];

  constructor(private readonly rank: Int32Array) {}

  get size(): number {
    return this.rates.length;
  }

  push(rate: number, tx: number, version: number): void {
    this.rates.push(rate);
    this.txs.push(tx);
    this.versions.push(version);
    let i = this.rates.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  pop(): { rate: number; tx: number; version: number } {
    const top = { rate: this.rates[0]!, tx: this.txs[0]!, version: this.versions[0]! };
    const last = this.rates.length - 1;
    this.swap(0, last);
    this.rates.pop();
    this.txs.pop();
    this.versions.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < this.rates.length && this.before(l, best)) best = l;
      if (r < this.rates.length && this.before(r, best)) best = r;
      if (best === i) break;
      this.swap(i, best);
      i = best;
    }
    return top;
  }

  private before(a: number, b: number): boolean {
    const ra = this.rates[a]!;
    const rb = this.rates[b]!;
    return ra > rb || (ra === rb && this.rank[this.txs[a]!]! < this.rank[this.txs[b]!]!);
  }

  private swap(a: number, b: number): void {
    [this.rates[a], this.rates[b]] = [this.rates[b]!, this.rates[a]!];
    [this.txs[a], this.txs[b]] = [this.txs[b]!, this.txs[a]!];
    [this.versions[a], this.versions[b]] = [this.versions[b]!, this.versions[a]!];
  }
}
