import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { BTC_MAIN, LTC_MAIN } from '../chains/networks.js';
import type { ChainSource } from '../core/index.js';
import { BlockFetcher } from './block-fetcher.js';

// A real 4-tx Litecoin block; the fake chain repeats it (the fetcher checks each block's hash against its height's).
const fixture = JSON.parse(readFileSync(new URL('../../test/fixtures/blocks/LTC-277645.json', import.meta.url), 'utf8')) as { hex: string; hash: string };
const RAW = Uint8Array.from(Buffer.from(fixture.hex, 'hex'));
const TXS_PER_BLOCK = 4;

interface Request { hashes: readonly string[]; answer(): void }

/**
 * A chain of `length` heights whose getRawBlocks calls wait until the test answers them, each with the fixture;
 * every height's hash is `hash` (the fixture's own unless a test wants a mismatch).
 */
function heldSource(length: number, hash = fixture.hash): { source: ChainSource; requests: Request[] } {
  const requests: Request[] = [];
  const source = {
    getBlockHashes: async (from: number, count: number) => Array.from({ length: Math.min(count, length - from) }, () => hash),
    getRawBlocks: (hashes: readonly string[]) => new Promise<Uint8Array[]>((resolve) => {
      requests.push({ hashes, answer: () => resolve(hashes.map(() => RAW)) });
    }),
  } as unknown as ChainSource;
  return { source, requests };
}

const ticks = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function answerAll(requests: Request[], done: Promise<unknown>): Promise<void> {
  let answered = 0;
  let finished = false;
  void done.then(() => { finished = true; }, () => { finished = true; });
  while (!finished) {
    while (answered < requests.length) requests[answered++]!.answer();
    await ticks();
  }
}

test('a calibrated batch keeps four getblock requests waiting on the node', async () => {
  const { source, requests } = heldSource(100);
  const fetcher = new BlockFetcher(source, LTC_MAIN.features, { targetTxs: 40, requestTxs: TXS_PER_BLOCK });
  // Calibrate the fetcher's block-size estimate with a first batch.
  const first = fetcher.fetch(0, fetcher.nextCount(100));
  await answerAll(requests, first);
  const calibrated = await first;
  requests.length = 0;

  const from = calibrated.fromHeight + calibrated.blocks.length;
  const batch = fetcher.fetch(from, fetcher.nextCount(100 - from));
  await ticks();
  // 40 txs at 4 per block, one block per request: ten requests, four of them issued before any answer
  // (one per RPC connection; with three, one connection sat idle while the store wrote the previous batch).
  assert.equal(requests.length, 4);
  assert.deepEqual(requests.map((r) => r.hashes.length), new Array(4).fill(1));
  await answerAll(requests, batch);
  const fetched = await batch;
  assert.equal(fetched.blocks.length, 10);
  assert.equal(fetched.fromHeight, from);
  assert.equal(fetched.bytes, 10 * RAW.length);
});

test('the parallel option still caps the requests in flight', async () => {
  const { source, requests } = heldSource(100);
  const fetcher = new BlockFetcher(source, LTC_MAIN.features, { targetTxs: 40, requestTxs: TXS_PER_BLOCK, parallel: 2 });
  const first = fetcher.fetch(0, 20);
  await answerAll(requests, first);
  const from = (await first).blocks.length;
  requests.length = 0;
  const second = fetcher.fetch(from, fetcher.nextCount(100 - from));
  await ticks();
  assert.equal(requests.length, 2);
  await answerAll(requests, second);
  assert.equal((await second).blocks.length, 10);
});

test('before any answer only one request is in flight: a wrong first guess cannot overshoot a batch', async () => {
  const { source, requests } = heldSource(100);
  // The initial guess (300 bytes a block) is five times too small for this block.
  const fetcher = new BlockFetcher(source, LTC_MAIN.features, { targetTxs: 10_000, targetBytes: 3 * RAW.length, requestTxs: TXS_PER_BLOCK });
  const batch = fetcher.fetch(0, 50);
  await ticks();
  assert.equal(requests.length, 1);
  await answerAll(requests, batch);
  const fetched = await batch;
  assert.ok(fetched.blocks.length >= 3 && fetched.blocks.length <= 5, `got ${fetched.blocks.length} blocks`);
});

test('a block whose hash is not the height\'s hash fails the batch', async () => {
  const { source, requests } = heldSource(1, '00'.repeat(32));
  const fetcher = new BlockFetcher(source, LTC_MAIN.features);
  const batch = fetcher.fetch(0, 1);
  batch.catch(() => undefined);
  await answerAll(requests, batch);
  await assert.rejects(batch, /node returned block/);
});

test('without parsing, a batch carries the raw blocks and the same counts (an initial load parses them elsewhere)', async () => {
  const { source, requests } = heldSource(100);
  const fetcher = new BlockFetcher(source, LTC_MAIN.features, { targetTxs: 40, requestTxs: TXS_PER_BLOCK, parse: false });
  const batch = fetcher.fetch(0, fetcher.nextCount(100));
  await answerAll(requests, batch);
  const fetched = await batch;
  assert.equal(fetched.blocks.length, 0);
  assert.ok(fetched.raws.length > 0);
  assert.equal(fetched.txCount, fetched.raws.length * TXS_PER_BLOCK);
  assert.equal(fetched.bytes, fetched.raws.length * RAW.length);
  // And it still refuses a block that is not the one asked for.
  const wrong = heldSource(1, '00'.repeat(32));
  const bad = new BlockFetcher(wrong.source, LTC_MAIN.features, { parse: false }).fetch(0, 1);
  bad.catch(() => undefined);
  await answerAll(wrong.requests, bad);
  await assert.rejects(bad, /node returned block/);
});

test('one small block among full ones does not make the next batch overshoot its target (an empty block mined amid full ones)', async () => {
  const load = (name: string): { raw: Uint8Array; hash: string } => {
    const f = JSON.parse(readFileSync(new URL(`../../test/fixtures/blocks/${name}.json`, import.meta.url), 'utf8')) as { hex: string; hash: string };
    return { raw: Uint8Array.from(Buffer.from(f.hex, 'hex')), hash: f.hash };
  };
  // Real Bitcoin blocks: a 9-tx one from 2010, and the 1-tx genesis block at one height.
  const full = load('BTC-2010-0000000000013b8a');
  const empty = load('BTC-0-genesis');
  // The last height of the third batch (ten 9-tx blocks each): the next batch starts from an estimate of 1 tx a block.
  const SMALL_AT = 29;
  const at = (height: number): { raw: Uint8Array; hash: string } => (height === SMALL_AT ? empty : full);
  const source = {
    getBlockHashes: async (from: number, count: number) => Array.from({ length: Math.min(count, 200 - from) }, (_, i) => at(from + i).hash),
    getRawBlocks: async (hashes: readonly string[]) => hashes.map((hash) => (hash === empty.hash ? empty.raw : full.raw)),
  } as unknown as ChainSource;
  const TARGET = 90;
  const fetcher = new BlockFetcher(source, BTC_MAIN.features, { targetTxs: TARGET, requestTxs: 9 });
  const batches: { from: number; blocks: number; txs: number }[] = [];
  for (let from = 0; from < 120;) {
    const batch = await fetcher.fetch(from, fetcher.nextCount(200 - from));
    batches.push({ from, blocks: batch.blocks.length, txs: batch.txCount });
    from += batch.blocks.length;
  }
  const largest = Math.max(...batches.map((b) => b.txs));
  // Before the estimate could fall by at most half, the batch after the small block asked for 36 blocks (324 txs).
  assert.ok(largest <= 2 * TARGET, `batches (from height: txs) ${batches.map((b) => `${b.from}: ${b.txs}`).join(', ')}`);
  assert.ok(batches.some((b) => b.from + b.blocks - 1 === SMALL_AT), 'a batch ended with the small block');
});
