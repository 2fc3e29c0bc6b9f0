/**
 * The PostgreSQL initial load's worker thread alone (main/stores/postgres-load-worker.ts): the 100,000-tx regtest chain
 * of the index bench, parsed and encoded as COPY payloads in batches of 20,000 txs (as the fetcher hands them over),
 * with its held outputs and recent scripts carried across batches as the worker carries them; no node, no server.
 * On two cores this thread is the load's critical path (the index bench's PostgreSQL load is ~1 s longer than
 * SQLite's at 100k), so its CPU time per tx is the figure to move; the index bench stays the figure of record.
 *   npm run bench:pg-encode
 * Each run starts cold in a new process (the worker sees each batch once: its first run is the figure), with the
 * payloads' memory reused a batch later as the worker loader reuses it (buffer-pool.ts) and, alternately, without.
 * Settings (environment): PG_ENCODE_RUNS (3 per mode), INDEX_BENCH_TXS (100000: which cached chain, dumped once by
 * bench/store-write.bench.ts from the index bench's node).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ByteReader } from '../src/chains/bytes/byte-reader.js';
import { getNetworkParams } from '../src/chains/networks.js';
import { BufferPool } from '../src/core/infrastructure/buffer-pool.js';
import { parseRawBlocks } from '../src/indexer/initial-load.js';
import { RecentKeys } from '../src/store/common/chain-writes/bulk-rows.js';
import { ScriptKeys } from '../src/store/common/chain-writes/script-keys.js';
import { encodeBulkBatch, encodeHeldRelease, payloadBuffers } from '../src/store/postgres/chain/postgres-bulk-encode.js';
import { HeldOutputs } from '../src/store/postgres/chain/postgres-held-outputs.js';
import { PgNet } from '../src/store/postgres/chain/postgres-net.js';
import { DUMP, dumpChain, dumpedBlocks } from './store-write.bench.js';

const BATCH_TXS = 20_000;
const NTX = Number(process.env['INDEX_BENCH_TXS'] ?? 100_000);
const params = getNetworkParams('LTCTEST', 'regtest');

/** The dump's raw blocks, grouped as the fetcher groups them (whole blocks, ~BATCH_TXS txs each). */
function rawBatches(): { batches: { fromHeight: number; raws: Uint8Array[] }[]; txs: number } {
  const batches: { fromHeight: number; raws: Uint8Array[] }[] = [];
  let batch: Uint8Array[] = [];
  let from = 0;
  let batchTxs = 0;
  let txs = 0;
  for (const { height, raw } of dumpedBlocks()) {
    // The tx count follows the 80-byte header (no AuxPoW on this chain): read without parsing the block.
    const count = new ByteReader(raw, 80).compactSize();
    batch.push(raw);
    batchTxs += count;
    txs += count;
    if (batchTxs >= BATCH_TXS) {
      batches.push({ fromHeight: from, raws: batch });
      from = height + 1;
      batch = [];
      batchTxs = 0;
    }
  }
  if (batch.length > 0) batches.push({ fromHeight: from, raws: batch });
  return { batches, txs };
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

interface RunResult {
  readonly wall: number;
  readonly cpu: number;
  readonly parse: number;
  readonly encode: number;
  readonly bytes: number;
  readonly txs: number;
}

/** One cold run in this process: every batch parsed and encoded once, as the worker does. */
function runOnce(pooled: boolean): RunResult {
  const { batches, txs } = rawBatches();
  const n = new PgNet(params.id, {});
  const keys = ScriptKeys.from({ salt: new Uint8Array(16).fill(7), bits: 47 });
  const held = new HeldOutputs();
  const recent = new RecentKeys();
  const pool = pooled ? new BufferPool() : undefined;
  let parse = 0;
  let encode = 0;
  let bytes = 0;
  let firstId = 0;
  let previous: ArrayBuffer[] = [];
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (const [i, b] of batches.entries()) {
    const t0 = performance.now();
    const blocks = parseRawBlocks(b.fromHeight, b.raws, params.features);
    const t1 = performance.now();
    const encoded = encodeBulkBatch(n, blocks, firstId, keys, recent, held, i === batches.length - 1, pool);
    encode += performance.now() - t1;
    parse += t1 - t0;
    firstId += encoded.txCount;
    for (const c of encoded.copies) bytes += c.payload.length;
    // The loader sends a batch's payloads back once the batch after it is encoded and it is written.
    for (const buffer of previous) pool?.give(buffer);
    previous = payloadBuffers(encoded.copies);
  }
  for (const c of encodeHeldRelease(n, held, pool).copies) bytes += c.payload.length;
  return { wall: (performance.now() - started) / 1000, cpu: cpuSeconds(cpu), parse: parse / 1000, encode: encode / 1000, bytes, txs };
}

export async function run(): Promise<void> {
  if (!existsSync(DUMP)) await dumpChain();
  const runs = Number(process.env['PG_ENCODE_RUNS'] ?? 3);
  console.log(`pg encode bench: ${NTX} txs, ${runs} cold runs per mode (alternated), node ${process.version}`);
  const walls: Record<string, number[]> = { pooled: [], fresh: [] };
  for (let r = 0; r < runs; r++) {
    for (const mode of ['pooled', 'fresh']) {
      const out = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
        env: { ...process.env, PG_ENCODE_CHILD: mode }, encoding: 'utf8',
      });
      const result = JSON.parse(out.trim().split('\n').pop()!) as RunResult;
      walls[mode]!.push(result.wall);
      console.log(`  ${mode.padEnd(6)} run ${r + 1}: ${result.wall.toFixed(2)} s (cpu ${result.cpu.toFixed(2)} s), ${(result.wall * 1e6 / result.txs).toFixed(1)} µs/tx; parse ${
        result.parse.toFixed(2)} s, encode ${result.encode.toFixed(2)} s; ${(result.bytes / result.txs).toFixed(0)} payload B/tx`);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const pooled = median(walls['pooled']!);
  const fresh = median(walls['fresh']!);
  console.log(`  median: pooled ${pooled.toFixed(2)} s, fresh ${fresh.toFixed(2)} s (pooled/fresh ${(pooled / fresh).toFixed(2)})`);
}

const argv = process.argv;
if (argv[1] !== undefined && import.meta.url === pathToFileURL(argv[1]).href) {
  const child = process.env['PG_ENCODE_CHILD'];
  if (child) console.log(JSON.stringify(runOnce(child === 'pooled')));
  else await run();
}
