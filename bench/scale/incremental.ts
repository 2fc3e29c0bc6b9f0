/**
 * Incremental indexing on a running service: blocks revealed on the stand-in node, the time until the service's
 * get_info reports them. Two ways a node grows: many blocks at once (a catch-up after downtime, batched) and one
 * block at a time, each revealed once the previous is indexed (following the tip).
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { ChainFiles } from './block-files.js';
import type { ServeProcess } from './serve-process.js';
import { indexedHeight } from './service-probe.js';
import type { StandInProcess } from './stand-in-process.js';

export interface IncrementalFigure {
  readonly blocks: number;
  readonly txs: number;
  readonly seconds: number;
  /** Per block, following one at a time (empty for a catch-up). */
  readonly blockMs: number[];
}

const NETWORK = 'BTCTEST';

/** Polls get_info until the service reports `height` (throws when the service exits or `timeoutMs` passes). */
export async function waitForHeight(serve: ServeProcess, height: number, pollMs: number, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (serve.exited) throw new Error(`outpoint serve exited; log tail:\n${serve.lines.slice(-15).map((l) => l.text).join('\n')}`);
    const indexed = await indexedHeight(serve.baseUrl, NETWORK);
    if (indexed !== null && indexed >= height) return;
    if (performance.now() > deadline) throw new Error(`service not at height ${height} after ${timeoutMs} ms (at ${indexed})`);
    await delay(pollMs);
  }
}

/** Reveals `blocks` blocks after `from` at once and times until the service has indexed them all. */
export async function catchUp(serve: ServeProcess, node: StandInProcess, chain: ChainFiles, from: number, blocks: number): Promise<IncrementalFigure> {
  const started = performance.now();
  await node.reveal(from + blocks);
  await waitForHeight(serve, from + blocks, 20, 3_600_000);
  return { blocks, txs: chain.txsThrough(from + blocks) - chain.txsThrough(from), seconds: (performance.now() - started) / 1000, blockMs: [] };
}

/**
 * Reveals `blocks` blocks after `from` one at a time, each once the previous is indexed (get_info polled every
 * 25 ms: a request costs the service's event loop little, and 25 ms is small against a block's indexing).
 */
export async function follow(serve: ServeProcess, node: StandInProcess, chain: ChainFiles, from: number, blocks: number): Promise<IncrementalFigure> {
  const blockMs: number[] = [];
  const started = performance.now();
  for (let h = from + 1; h <= from + blocks; h++) {
    const t = performance.now();
    await node.reveal(h);
    await waitForHeight(serve, h, 25, 600_000);
    blockMs.push(performance.now() - t);
  }
  return { blocks, txs: chain.txsThrough(from + blocks) - chain.txsThrough(from), seconds: (performance.now() - started) / 1000, blockMs };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!;
}
