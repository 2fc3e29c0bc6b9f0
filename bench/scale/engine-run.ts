/**
 * One engine's measurements in the scale benchmark, each on a fresh store with a real `outpoint serve`:
 * - the reference: a small index (the chain's first ~100k txs), then blocks added incrementally;
 * - the big run: an initial sync from an empty store to address queries answering at the tip (the load curve),
 *   the same number of blocks added incrementally, peak RSS, and bytes on disk per table after a clean stop.
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ChainFiles } from './block-files.js';
import type { TrackedAddressInfo } from './generate-chain.js';
import { catchUp, follow, waitForHeight, type IncrementalFigure } from './incremental.js';
import { loadCurve, type LoadCurve } from './load-curve.js';
import { readSyncLog, type PhaseSpan } from './progress-log.js';
import { ServeProcess } from './serve-process.js';
import { confirmedBalance, indexedHeight } from './service-probe.js';
import type { StandInProcess } from './stand-in-process.js';
import { postgresSizes, sqliteSizes, type RelationSize } from './store-sizes.js';
import { ClusterMemory, type ClusterPeak } from './cluster-memory.js';

export type Engine = 'sqlite' | 'postgres';

export interface RunContext {
  readonly engine: Engine;
  readonly chain: ChainFiles;
  readonly node: StandInProcess;
  readonly tracked: readonly TrackedAddressInfo[];
  readonly workDir: string;
  /** A fresh PostgreSQL database URL per call (postgres only). */
  readonly newDatabase: (name: string) => Promise<string>;
  readonly freePort: () => Promise<number>;
  readonly catchUpBlocks: number;
  readonly followBlocks: number;
  /** `[realtime] event_log_hours` of the service (default its own: 24). */
  readonly eventLogHours?: number;
  /** `[store] raw_txs` of the service (default "store"). */
  readonly rawTxs?: 'store' | 'node';
  /** Node.js options of the service's process (BENCH_SCALE_NODE_ARGS, e.g. `--trace-gc`: its lines go to serve.log). */
  readonly nodeArgs?: readonly string[];
}

export interface IncrementalPair {
  readonly indexTxs: number;
  readonly catchUp: IncrementalFigure;
  readonly follow: IncrementalFigure;
}

export interface BigRun extends IncrementalPair {
  readonly readySeconds: number;
  readonly curve: LoadCurve;
  readonly phases: PhaseSpan[];
  readonly finished: Record<string, string> | null;
  readonly errors: string[];
  readonly balanceMismatches: string[];
  readonly peakRssLoad: number;
  readonly peakRss: number;
  /** The high-water mark after the blocks added at once (before the ones added one by one). */
  readonly peakRssCatchUp: number;
  /** When the once-a-second RSS sampling saw its highest value (s since spawn) and the height logged by then. */
  readonly peakRssAt: { seconds: number; height: number | null };
  readonly exitCode: number;
  readonly diskBytes: number;
  readonly sizes: RelationSize[];
  readonly logPath: string;
  /** PostgreSQL: the server's peak resident memory and data directory size over the big run (null on SQLite). */
  readonly cluster: ClusterPeak | null;
}

const NETWORK = 'BTCTEST';

/** `BENCH_SCALE_EVENT_LOG_HOURS`: the service's `[realtime] event_log_hours` (unset: the service's default). */
export function eventLogFromEnv(): { eventLogHours?: number } {
  const hours = process.env['BENCH_SCALE_EVENT_LOG_HOURS'];
  return hours === undefined ? {} : { eventLogHours: Number(hours) };
}

/** The tracked address's expected confirmed balance at a height, as get_address_balance prints it. */
function expectedBalance(t: TrackedAddressInfo, height: number): string {
  let sats = 0;
  for (const [h, balance] of t.history) if (h <= height) sats = balance;
  return `${Math.floor(sats / 1e8)}.${String(sats % 1e8).padStart(8, '0')}`;
}

async function startServe(ctx: RunContext, name: string): Promise<{ serve: ServeProcess; storeUrl: string; dbPath: string | null; dir: string }> {
  const dir = join(ctx.workDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const dbPath = ctx.engine === 'sqlite' ? join(dir, 'index.db') : null;
  const storeUrl = dbPath ? `sqlite:${dbPath}` : await ctx.newDatabase(name.replace(/\W/g, '_'));
  const serve = new ServeProcess({
    configPath: join(dir, 'outpoint.toml'), storeUrl, dataDir: join(dir, 'data'), httpPort: await ctx.freePort(),
    rpcUrl: ctx.node.url, pollMs: 20, logPath: join(dir, 'serve.log'), ...(ctx.eventLogHours !== undefined ? { eventLogHours: ctx.eventLogHours } : {}), ...(ctx.rawTxs ? { rawTxs: ctx.rawTxs } : {}),
    ...(ctx.nodeArgs ? { nodeArgs: ctx.nodeArgs } : {}),
  });
  return { serve, storeUrl, dbPath, dir };
}

/**
 * Waits until get_info reports `height` and every tracked address's balance query answers: the moment a user's
 * address queries work at the tip. Balances that answer but differ from the generator's are returned.
 */
async function waitReady(serve: ServeProcess, tracked: readonly TrackedAddressInfo[], height: number): Promise<string[]> {
  for (;;) {
    await waitForHeight(serve, height, 250, 48 * 3_600_000);
    const answers = await Promise.all(tracked.map((t) => confirmedBalance(serve.baseUrl, NETWORK, t.address)));
    if (answers.every((a) => a !== null)) {
      return tracked.flatMap((t, i) => (answers[i] === expectedBalance(t, height) ? [] : [`${t.address}: ${answers[i]} instead of ${expectedBalance(t, height)}`]));
    }
    if ((await indexedHeight(serve.baseUrl, NETWORK)) === height) await new Promise((r) => setTimeout(r, 100));
  }
}

/** Incremental indexing on a small index: the chain's first `indexTxs`, then blocks added. */
export async function smallIndexRun(ctx: RunContext, indexTxs: number): Promise<IncrementalPair> {
  const height = ctx.chain.heightForTxs(indexTxs);
  await ctx.node.reveal(height);
  const { serve, dir } = await startServe(ctx, `${ctx.engine}-small`);
  try {
    await waitReady(serve, ctx.tracked, height);
    const caught = await catchUp(serve, ctx.node, ctx.chain, height, ctx.catchUpBlocks);
    const followed = await follow(serve, ctx.node, ctx.chain, height + ctx.catchUpBlocks, ctx.followBlocks);
    return { indexTxs: ctx.chain.txsThrough(height), catchUp: caught, follow: followed };
  } finally {
    await serve.stop();
    if (ctx.engine === 'sqlite') rmSync(dir, { recursive: true, force: true });
  }
}

/** The initial sync of `txs` transactions from an empty store, then blocks added to the big index. */
export async function bigRun(ctx: RunContext, txs: number): Promise<BigRun> {
  const height = ctx.chain.heightForTxs(txs);
  const tipTxs = ctx.chain.txsThrough(height);
  await ctx.node.reveal(height);
  const { serve, storeUrl, dbPath, dir } = await startServe(ctx, `${ctx.engine}-big`);
  const cluster = dbPath ? null : new ClusterMemory(await dataDirectory(storeUrl));
  let exitCode = -1;
  try {
    const balanceMismatches = await waitReady(serve, ctx.tracked, height);
    const readyAt = serve.elapsed();
    const log = readSyncLog(serve.lines, readyAt);
    const curve = loadCurve(log.samples, log.phases, (h) => ctx.chain.txsThrough(h), readyAt, tipTxs);
    const peakRssLoad = serve.peakRssBytes();
    const peakSample = serve.rssPeakSample.at;
    const peakRssAt = { seconds: peakSample / 1000, height: log.samples.filter((x) => x.at <= peakSample).pop()?.height ?? null };
    const caught = await catchUp(serve, ctx.node, ctx.chain, height, ctx.catchUpBlocks);
    const peakRssCatchUp = serve.peakRssBytes();
    const followed = await follow(serve, ctx.node, ctx.chain, height + ctx.catchUpBlocks, ctx.followBlocks);
    const peakRss = serve.peakRssBytes();
    exitCode = await serve.stop();
    const sizes = dbPath ? sqliteSizes(dbPath) : await postgresSizes(storeUrl);
    const diskBytes = dbPath ? [dbPath, `${dbPath}-wal`, `${dbPath}-shm`].reduce((sum, p) => sum + (existsSync(p) ? statSync(p).size : 0), 0) : sizes.reduce((s, r) => s + r.bytes, 0);
    return {
      indexTxs: tipTxs, catchUp: caught, follow: followed, readySeconds: readyAt / 1000, curve, phases: log.phases,
      finished: log.finished, errors: log.errors, balanceMismatches, peakRssLoad, peakRssCatchUp, peakRss, peakRssAt, exitCode, diskBytes, sizes,
      logPath: join(dir, 'serve.log'), cluster: cluster?.stop() ?? null,
    };
  } finally {
    cluster?.stop();
    if (!serve.exited) await serve.stop();
    if (dbPath && process.env['BENCH_SCALE_KEEP'] !== '1') rmSync(dbPath, { force: true });
  }
}

async function dataDirectory(connectionString: string): Promise<string> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return String((await client.query<{ data_directory: string }>('SHOW data_directory')).rows[0]!.data_directory);
  } finally {
    await client.end();
  }
}
