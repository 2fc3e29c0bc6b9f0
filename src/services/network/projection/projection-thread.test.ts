/**
 * Projections on the worker thread: the same blocks as on this thread (entries crossing in pieces, sizes the node did
 * not give, parents in another piece), the event loop left idle for most of a pass, and a worker that dies mid-pass
 * costing nothing but the thread (the pass ends on the event loop, with the same blocks).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import type { MempoolSourceEntry } from '../../../core/sources/mempool-source.js';
import { seededRandom } from '../../../../test/helpers/seeded-random.js';
import { projectMempoolBlocks, type ProjectionOptions } from './mempool-projection.js';
import { ENTRIES_PER_PIECE, ProjectionThread } from './projection-thread.js';

const txid = (n: number): string => n.toString(16).padStart(64, '0');

/** A mempool of `n` txs: a fifth with a parent anywhere before them (often in another piece), a tenth without a size. */
function mempool(n: number, seed: number): MempoolSourceEntry[] {
  const random = seededRandom(seed);
  const entries: MempoolSourceEntry[] = [];
  for (let i = 1; i <= n; i++) {
    const vsize = 110 + Math.floor(random() * 400);
    const depends = i > 1 && random() < 0.2 ? [txid(1 + Math.floor(random() * (i - 1)))] : [];
    entries.push({ txid: txid(i), fee: BigInt(Math.floor(random() * 50 * vsize)), vsize, weight: vsize * 4 - Math.floor(random() * 3), size: random() < 0.1 ? null : vsize + 40, depends });
  }
  return entries;
}

const OPTIONS: ProjectionOptions = { maxBlockWeight: 4_000_000, blocks: 6, minFeeRate: 1.01 };

describe('ProjectionThread', () => {
  it('projects what the event loop would: 6 and 144 blocks deep, across pieces', async () => {
    const thread = new ProjectionThread();
    try {
      const entries = mempool(3 * ENTRIES_PER_PIECE + 17, 7);
      for (const options of [OPTIONS, { ...OPTIONS, blocks: 144, maxBlockWeight: 400_000 }]) {
        const { blocks } = await thread.project(entries, options);
        assert.deepEqual(blocks, projectMempoolBlocks(entries, options));
        assert.ok(blocks.filter((b) => b.numTxs > 0).length >= 2, 'the mempool fills more than one block');
      }
      assert.deepEqual((await thread.project([], OPTIONS)).blocks, projectMempoolBlocks([], OPTIONS));
    } finally {
      await thread.close();
    }
  });

  it('leaves the event loop idle for most of a pass over 30,000 txs (in slices on it, the loop was busy throughout)', async () => {
    const thread = new ProjectionThread();
    try {
      const entries = mempool(30_000, 11);
      await thread.project(entries, OPTIONS); // the worker's start and its compile: the next pass is measured
      const before = performance.eventLoopUtilization();
      const started = performance.now();
      await thread.project(entries, OPTIONS);
      const used = performance.eventLoopUtilization(before);
      assert.ok(used.utilization < 0.5, `the event loop was busy ${(used.utilization * 100).toFixed(0)} % of a ${(performance.now() - started).toFixed(0)} ms pass`);
    } finally {
      await thread.close();
    }
  });

  it("runs at the lowest priority, its own thread only (Linux: a thread's nice value is its own)", async () => {
    const thread = new ProjectionThread();
    try {
      await thread.project(mempool(10, 3), OPTIONS);
      const nice = (task: string): number => Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
      // The process's own priority, whatever the test runner was started with (a nice 19 run cannot tell the two apart).
      const base = getPriority();
      assert.equal(nice(String(process.pid)), base, 'the event loop keeps the process\'s priority');
      if (base < 19) assert.equal(readdirSync('/proc/self/task').filter((t) => nice(t) === 19).length, 1, 'one thread at nice 19: the worker');
    } finally {
      await thread.close();
    }
  });

  it('a worker that dies mid-pass: the pass ends on the event loop with the same blocks, the loss told once', async () => {
    const lost: Error[] = [];
    const thread = new ProjectionThread((error) => lost.push(error));
    try {
      const entries = mempool(20_000, 13);
      await thread.project(entries, OPTIONS);
      const pass = thread.project(entries, OPTIONS);
      await (thread as unknown as { worker: Worker }).worker.terminate();
      assert.deepEqual((await pass).blocks, projectMempoolBlocks(entries, OPTIONS));
      assert.deepEqual((await thread.project(entries.slice(0, 100), OPTIONS)).blocks, projectMempoolBlocks(entries.slice(0, 100), OPTIONS));
      assert.equal(lost.length, 1);
      assert.match(lost[0]!.message, /exited/);
    } finally {
      await thread.close();
    }
  });
});
