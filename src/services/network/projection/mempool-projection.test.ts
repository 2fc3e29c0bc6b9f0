import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MempoolSourceEntry } from '../../../core/sources/mempool-source.js';
import { naiveProjection } from '../../../../test/helpers/naive-projection.js';
import { withLoopTurns } from '../../../../test/helpers/loop-turns.js';
import { projectMempoolBlocks, projectMempoolBlocksSliced } from './mempool-projection.js';

const id = (n: number) => n.toString(16).padStart(64, '0');
const tx = (n: number, fee: number, vsize: number, depends: number[] = []): MempoolSourceEntry => ({
  txid: id(n), fee: BigInt(fee), vsize, weight: vsize * 4, size: vsize + 10, depends: depends.map(id),
});
const strip = (blocks: ReturnType<typeof naiveProjection>) => blocks.map(({ txids: _txids, ...rest }) => rest);

void test('always 6 blocks: an empty mempool projects 6 empty blocks, a small one fills the first', () => {
  const empty = (blockNum: number) => ({ blockNum, minFeeRate: 0, maxFeeRate: 0, medianFeeRate: 0, minFeeRatePossible: 1.5, weight: 0, size: 0, numTxs: 0 });
  assert.deepEqual(projectMempoolBlocks([], { maxBlockWeight: 4_000_000, blocks: 6, minFeeRate: 1.5 }), [1, 2, 3, 4, 5, 6].map(empty));
  const small = projectMempoolBlocks([tx(1, 1_000, 100)], { maxBlockWeight: 4_000_000, blocks: 6, minFeeRate: 1.5 });
  assert.deepEqual(small.map((b) => [b.blockNum, b.numTxs]), [[1, 1], [2, 0], [3, 0], [4, 0], [5, 0], [6, 0]]);
  assert.deepEqual(small.slice(1), [2, 3, 4, 5, 6].map(empty));
});

void test('a child pays for its parent: the package goes first at its combined rate', () => {
  const entries = [tx(1, 100, 100), tx(2, 5_000, 100, [1]), tx(3, 2_000, 100)];
  const [block] = projectMempoolBlocks(entries, { maxBlockWeight: 4_000_000, blocks: 6, minFeeRate: 1 });
  // Package {1,2}: 5,100 / 200 = 25.5 per vbyte beats tx 3 at 20.
  assert.deepEqual(block, {
    blockNum: 1, minFeeRate: 20, maxFeeRate: 25.5, medianFeeRate: 25.5, minFeeRatePossible: 1, weight: 1200, size: 330, numTxs: 3,
  });
});

void test('blocks respect the weight limit less the coinbase reserve; what does not fit waits', () => {
  // Limit 14,000 - 4,000 reserve = 10,000 weight per block: txs 1 and 2 (4,000 each), then 3 does not fit but 4 (2,000) does.
  const entries = [tx(1, 4_000, 1_000), tx(2, 3_000, 1_000), tx(3, 2_000, 1_000), tx(4, 600, 500), tx(5, 100, 100)];
  const blocks = projectMempoolBlocks(entries, { maxBlockWeight: 14_000, blocks: 6, minFeeRate: 1 });
  for (const b of blocks) assert.ok(b.weight <= 10_000, `block ${b.blockNum} weighs ${b.weight}`);
  assert.deepEqual(blocks.map((b) => b.numTxs), [3, 2, 0, 0, 0, 0]);
  assert.deepEqual(blocks[0], { blockNum: 1, minFeeRate: 1.2, maxFeeRate: 4, medianFeeRate: 3, minFeeRatePossible: 1.2, weight: 10_000, size: 2530, numTxs: 3 });
  assert.deepEqual(strip(naiveProjection(entries, 14_000, 6, 1)), blocks);
});

void test('a package too heavy for the rest of a block waits for the next one, smaller packages fill in', () => {
  const entries = [tx(1, 9_000, 2_000), tx(2, 10, 1_500), tx(3, 20_000, 100, [2]), tx(4, 50, 50)];
  const blocks = projectMempoolBlocks(entries, { maxBlockWeight: 4_000 + 8_800, blocks: 6, minFeeRate: 2 });
  assert.deepEqual(strip(naiveProjection(entries, 12_800, 6, 2)), blocks);
});

void test('matches the naive projection on random mempools with ancestor chains', () => {
  let seed = 42;
  const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 5; round++) {
    const entries: MempoolSourceEntry[] = [];
    for (let i = 1; i <= 300; i++) {
      const vsize = 100 + Math.floor(rnd() * 900);
      const depends = i > 5 && rnd() < 0.35 ? [1 + Math.floor(rnd() * (i - 1))] : [];
      if (depends.length && rnd() < 0.3) depends.push(1 + Math.floor(rnd() * (i - 1)));
      entries.push({ ...tx(i, Math.floor(vsize * (1 + rnd() * 60)), vsize, [...new Set(depends)]), weight: vsize * 4 - Math.floor(rnd() * 3) });
    }
    const limit = 4_000 + 100_000;
    const fast = projectMempoolBlocks(entries, { maxBlockWeight: limit, blocks: 6, minFeeRate: 1 });
    const slow = naiveProjection(entries, limit, 6, 1);
    assert.equal(fast.length, 6);
    assert.deepEqual(fast, strip(slow), `round ${round}`);
  }
});

void test('projects 50,000 transactions quickly', () => {
  const entries: MempoolSourceEntry[] = [];
  for (let i = 1; i <= 50_000; i++) entries.push(tx(i, 200 + ((i * 7919) % 20_000), 140 + (i % 300), i % 10 === 0 ? [i - 1] : []));
  // CPU time, not the wall clock: on a loaded machine the process waits for a core (2.2 s of wall clock seen at load 10).
  const started = process.cpuUsage();
  const blocks = projectMempoolBlocks(entries, { maxBlockWeight: 4_000_000, blocks: 6, minFeeRate: 1 });
  const used = process.cpuUsage(started);
  const ms = (used.user + used.system) / 1000;
  assert.equal(blocks.length, 6);
  assert.ok(ms < 2_000, `took ${ms} ms of CPU`);
});

void test('the sliced projection gives the same blocks, with turns of the event loop during it', async () => {
  // A mempool of chains (wallets spending their change), as in the 30,000-tx bench mempool.
  const entries: MempoolSourceEntry[] = [];
  for (let i = 1; i <= 30_000; i++) entries.push(tx(i, 200 + ((i * 7919) % 20_000), 140 + (i % 300), i % 4 === 0 ? [i - 1] : i % 7 === 0 ? [i - 3, i - 5] : []));
  for (const blocks of [6, 144]) {
    const options = { maxBlockWeight: 4_000_000, blocks, minFeeRate: 1 };
    const { result: sliced, turns } = await withLoopTurns(() => projectMempoolBlocksSliced(entries, options, 2));
    assert.deepEqual(sliced, projectMempoolBlocks(entries, options), `${blocks} blocks`);
    // In one piece it would let the loop turn once at most; 2 ms slices of a pass of tens of ms give many turns.
    assert.ok(turns >= 5, `${turns} turns of the event loop during the pass`);
  }
});
