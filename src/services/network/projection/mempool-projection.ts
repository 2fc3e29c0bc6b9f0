import type { MempoolSourceEntry } from '../../../core/sources/mempool-source.js';
import { PAUSE_EVERY, Packages, TxGraph } from './mempool-packages.js';
import { PackageHeap } from './package-heap.js';
import { runSliced, runToEnd, type Steps } from './time-sliced.js';

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

/** The txs one projected block takes, with their package rates. */
interface BlockFill {
  readonly weight: number;
  readonly size: number;
  /** One rate per tx: the rate of the package it entered with. */
  readonly rates: number[];
}

/**
 * Fills one block greedily by ancestor-package fee rate, as Core's block assembler does: the best package goes in
 * whole if it fits the weight budget, else it waits for the next block (queued again at the end); including a package
 * lowers the package figures of its descendants, which are queued again. Like Core's miner, once the block is nearly
 * full it gives up after MAX_FAILURES packages that did not fit.
 */
function* fillBlock(g: TxGraph, packages: Packages, heap: PackageHeap, budget: number): Steps<BlockFill> {
  let weight = 0;
  let size = 0;
  const rates: number[] = [];
  const deferred: { tx: number; version: number }[] = [];
  let failures = 0;
  let popped = 0;
  while (heap.size > 0) {
    if (++popped % PAUSE_EVERY === 0) yield;
    const top = heap.pop();
    const i = top.tx;
    if (packages.included[i] || packages.version[i] !== top.version) continue;
    if (weight + packages.weight[i]! > budget) {
      deferred.push({ tx: i, version: top.version });
      if (++failures > MAX_FAILURES && weight > budget - NEARLY_FULL) break;
      continue;
    }
    const rate = packages.rate(i);
    const pkg = packages.members(i);
    for (const t of pkg) {
      weight += g.weight[t]!;
      size += g.size[t]!;
      rates.push(rate);
    }
    for (const c of packages.include(pkg)) heap.push(packages.rate(c), c, packages.version[c]!);
  }
  // A deferred tx whose figures changed meanwhile is already queued under its newer version.
  for (const d of deferred) if (!packages.included[d.tx] && packages.version[d.tx] === d.version) heap.push(packages.rate(d.tx), d.tx, d.version);
  return { weight, size, rates };
}

/** A filled block's figures; `full` decides what a new tx needs to enter it. */
function blockFigures(blockNum: number, fill: BlockFill, budget: number, mempoolMinRate: number): ProjectedBlock {
  const rates = fill.rates.sort((a, b) => a - b);
  const mid = rates.length >> 1;
  const median = rates.length % 2 === 1 ? rates[mid]! : (rates[mid - 1]! + rates[mid]!) / 2;
  const full = fill.weight > budget - NEARLY_FULL;
  return {
    blockNum,
    minFeeRate: round2(rates[0]!),
    maxFeeRate: round2(rates[rates.length - 1]!),
    medianFeeRate: round2(median),
    minFeeRatePossible: round2(full ? rates[0]! : mempoolMinRate),
    weight: fill.weight,
    size: fill.size,
    numTxs: rates.length,
  };
}

/**
 * The next `blocks` blocks, always that many (docs/api-v3.md: "array of 6 mempool block items for the next 6 blocks");
 * blocks the mempool does not fill have no txs, zero size, weight and rates. Ties break by txid so the projection is
 * deterministic.
 */
export function projectMempoolBlocks(entries: readonly MempoolSourceEntry[], options: ProjectionOptions): ProjectedBlock[] {
  return runToEnd(projectionSteps(entries, options));
}

/**
 * The same projection in slices of the event loop's time (time-sliced.ts): the service's passes on a mainnet-sized
 * mempool took 250-500 ms in one piece, and the indexer's poll and realtime's events waited behind them. `entries`
 * must not change meanwhile (a snapshot).
 */
export function projectMempoolBlocksSliced(entries: readonly MempoolSourceEntry[], options: ProjectionOptions, sliceMs?: number): Promise<ProjectedBlock[]> {
  return runSliced(projectionSteps(entries, options), sliceMs);
}

function* projectionSteps(entries: readonly MempoolSourceEntry[], options: ProjectionOptions): Steps<ProjectedBlock[]> {
  const graph = yield* TxGraph.build(entries);
  const packages = yield* Packages.build(graph);
  const heap = new PackageHeap(entries.map((e) => e.txid));
  for (let i = 0; i < graph.count; i++) {
    if (i % PAUSE_EVERY === PAUSE_EVERY - 1) yield;
    heap.push(packages.rate(i), i, 0);
  }
  const budget = options.maxBlockWeight - COINBASE_RESERVED_WEIGHT;
  const blocks: ProjectedBlock[] = [];
  for (let blockNum = 1; blockNum <= options.blocks && heap.size > 0; blockNum++) {
    const fill = yield* fillBlock(graph, packages, heap, budget);
    if (fill.rates.length === 0) break; // nothing left that fits: the rest are empty blocks
    blocks.push(blockFigures(blockNum, fill, budget, options.minFeeRate));
  }
  while (blocks.length < options.blocks) blocks.push(emptyBlock(blocks.length + 1, options.minFeeRate));
  return blocks;
}

/** A block the mempool does not fill: no txs, and any tx paying the mempool's minimum rate would enter it. */
function emptyBlock(blockNum: number, minFeeRate: number): ProjectedBlock {
  return { blockNum, minFeeRate: 0, maxFeeRate: 0, medianFeeRate: 0, minFeeRatePossible: round2(minFeeRate), weight: 0, size: 0, numTxs: 0 };
}
