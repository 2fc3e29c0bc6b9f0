/**
 * The SQLite store's write path alone: the 100,000-tx regtest chain of the index bench, parsed before the clock,
 * connected into a fresh database in batches of 20,000 txs (the indexer's default), several runs. Without the node,
 * the fetcher and the event loop in the figure, store changes can be compared to a few percent; the index bench
 * stays the figure of record.
 *   node --import tsx bench/store-write.bench.ts
 * Settings (environment): STORE_WRITE_RUNS (3), INDEX_BENCH_TXS (100000: which cached chain), STORE_WRITE_MODES
 * (bulk,incremental): "bulk" is an initial load (loadBlocks per batch, then finishBulkLoad, each build step timed),
 * "incremental" connectBlocks per batch.
 * The chain's raw blocks are dumped once to .bench-cache/blocks-<txs>.bin (length-prefixed), from the index bench's
 * node.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getNetworkParams } from '../src/chains/networks.js';
import { parseBlock } from '../src/chains/parsing.js';
import type { BlockToConnect } from '../src/core/store/chain-writes.js';
import { NodeClient } from '../src/node/rpc/node-client.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { prepareNodeDir, startNode, stopNode } from './index.bench.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NTX = Number(process.env['INDEX_BENCH_TXS'] ?? 100_000);
export const DUMP = join(ROOT, '.bench-cache', `blocks-${NTX}.bin`);
const BATCH_TXS = 20_000;
const params = getNetworkParams('LTCTEST', 'regtest');

export async function dumpChain(): Promise<void> {
  console.log(`  dumping the chain's raw blocks to ${DUMP} (once)`);
  const node = await startNode(prepareNodeDir());
  try {
    const client = new NodeClient(node.rpc);
    const tip = await node.rpc.call<number>('getblockcount');
    const parts: Buffer[] = [];
    for (let h = 0; h <= tip; h += 50) {
      const hashes = await Promise.all(Array.from({ length: Math.min(50, tip - h + 1) }, (_, i) => node.rpc.call<string>('getblockhash', [h + i])));
      for (const raw of await client.getRawBlocks(hashes)) {
        const length = Buffer.alloc(4);
        length.writeUInt32LE(raw.length);
        parts.push(length, Buffer.from(raw));
      }
    }
    writeFileSync(DUMP, Buffer.concat(parts));
  } finally {
    await stopNode(node);
  }
}

/** The dump's raw blocks in chain order, each with its height (views of the file's bytes). */
export function* dumpedBlocks(): Generator<{ height: number; raw: Buffer }> {
  const bytes = readFileSync(DUMP);
  for (let at = 0, height = 0; at < bytes.length; height++) {
    const length = bytes.readUInt32LE(at);
    yield { height, raw: bytes.subarray(at + 4, at + 4 + length) };
    at += 4 + length;
  }
}

export function loadBatches(): { batches: BlockToConnect[][]; txs: number } {
  const batches: BlockToConnect[][] = [];
  let batch: BlockToConnect[] = [];
  let batchTxs = 0;
  let txs = 0;
  for (const { height, raw } of dumpedBlocks()) {
    const block = parseBlock(raw, params.features);
    batch.push({ height, block });
    batchTxs += block.txs.length;
    txs += block.txs.length;
    if (batchTxs >= BATCH_TXS) {
      batches.push(batch);
      batch = [];
      batchTxs = 0;
    }
  }
  if (batch.length > 0) batches.push(batch);
  return { batches, txs };
}

/** One run of one mode into a fresh database; returns seconds and a line of detail. */
async function writeOnce(mode: string, batches: BlockToConnect[][]): Promise<{ seconds: number; detail: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-store-write-'));
  try {
    const store = new SqliteStore({ path: join(dir, 'store.db') });
    await store.migrate();
    const network = store.network(params.id);
    const perBatch: number[] = [];
    const start = performance.now();
    const startCpu = process.cpuUsage();
    if (mode === 'bulk') await network.beginBulkLoad(0);
    for (const batch of batches) {
      const t = performance.now();
      if (mode === 'bulk') await network.loadBlocks(batch);
      else await network.connectBlocks(batch);
      perBatch.push(performance.now() - t);
    }
    // CPU seconds beside wall seconds: on a machine shared with other work the CPU figure moves much less.
    const steps: string[] = [];
    if (mode === 'bulk') {
      let at = performance.now();
      let cpu = process.cpuUsage();
      let name = '';
      const close = (): void => {
        const used = process.cpuUsage(cpu);
        steps.push(`${name} ${((performance.now() - at) / 1000).toFixed(2)} (cpu ${((used.user + used.system) / 1e6).toFixed(2)})`);
      };
      await network.finishBulkLoad((s) => {
        if (name) close();
        name = s.name;
        at = performance.now();
        cpu = process.cpuUsage();
      });
      close();
    }
    const seconds = (performance.now() - start) / 1000;
    const used = process.cpuUsage(startCpu);
    await store.close();
    const loaded = perBatch.reduce((a, b) => a + b, 0) / 1000;
    const detail = `cpu ${((used.user + used.system) / 1e6).toFixed(2)} s; per batch ${perBatch.map((ms) => (ms / 1000).toFixed(2)).join(' ')} s${
      mode === 'bulk' ? `; load ${loaded.toFixed(2)} s, build: ${steps.join(', ')} s` : ''}`;
    return { seconds, detail };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  if (!existsSync(DUMP)) await dumpChain();
  const runs = Number(process.env['STORE_WRITE_RUNS'] ?? 3);
  const modes = (process.env['STORE_WRITE_MODES'] ?? 'bulk,incremental').split(',');
  const { batches, txs } = loadBatches();
  console.log(`store write bench: SQLite, ${txs} txs in ${batches.length} batches, ${runs} run(s) per mode, node ${process.version}`);
  for (const mode of modes) {
    let best = Infinity;
    for (let i = 0; i < runs; i++) {
      const { seconds, detail } = await writeOnce(mode, batches);
      best = Math.min(best, seconds);
      console.log(`  ${mode} run ${i + 1}: ${seconds.toFixed(2)} s, ${Math.round(txs / seconds)} tx/s; ${detail}`);
    }
    console.log(`  ${mode} best ${best.toFixed(2)} s (${Math.round(txs / best)} tx/s)`);
  }
}

const argv = process.argv;
if (argv[1] !== undefined && import.meta.url === pathToFileURL(argv[1]).href) await run();
