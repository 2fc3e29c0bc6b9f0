/**
 * The index the mempool bench runs on, served by the real `outpoint serve` (bin/outpoint.js, as the scale bench runs
 * it): the scale chain's first N txs, built by an initial sync from an empty store, or a kept SQLite file reused
 * (building 2M txs takes ~10 minutes here; 20M about 90). PostgreSQL gets a fresh database on the test helper's
 * server each run.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { openSqliteDatabase } from '../../src/store/sqlite/connection/sqlite-binding.js';
import { freePort } from '../../test/helpers/free-port.js';
import { waitForHeight } from '../scale/incremental.js';
import { ServeProcess } from '../scale/serve-process.js';
import type { StandInProcess } from '../scale/stand-in-process.js';

export type Engine = 'sqlite' | 'postgres';

export interface IndexOptions {
  readonly engine: Engine;
  readonly node: StandInProcess;
  readonly height: number;
  readonly pollMs: number;
  readonly workDir: string;
  /** SQLite: this file is used when it exists, built (and kept) when it does not. */
  readonly keptFile?: string;
  /** SQLite without keptFile: keep the built file (BENCH_SCALE_KEEP=1). */
  readonly keep: boolean;
  /** Node options of the measured process (not the build's): `--cpu-prof --cpu-prof-dir=…` to profile the run. */
  readonly nodeArgs?: readonly string[];
}

export interface RunningIndex {
  readonly serve: ServeProcess;
  readonly storeUrl: string;
  /** Seconds the initial sync took (0 when a kept index was reused). */
  readonly buildSeconds: number;
  readonly reused: boolean;
  /** SQLite: the file's free pages now (what the service still has to give back after the bulk load), else 0. */
  freePages(): number;
  stop(): Promise<number>;
}

type Pg = { urlFor(db: string): string; url: string; stop(): Promise<void> };

export async function startIndex(options: IndexOptions): Promise<RunningIndex> {
  const dir = join(options.workDir, `${options.engine}-run`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let pg: Pg | null = null;
  let dbPath: string | null = null;
  let storeUrl: string;
  let reused = false;
  if (options.engine === 'postgres') {
    const { startPostgres } = await import('../../test/helpers/postgres-server.js');
    pg = await startPostgres({ settings: { shared_buffers: '1GB', max_wal_size: '4GB' } });
    storeUrl = await freshDatabase(pg, 'mempool_rate');
  } else {
    dbPath = options.keptFile ?? join(dir, 'index.db');
    reused = existsSync(dbPath);
    mkdirSync(dirname(dbPath), { recursive: true });
    storeUrl = `sqlite:${dbPath}`;
  }
  const serveIn = async (name: string, nodeArgs: readonly string[] = []): Promise<ServeProcess> => {
    const serve = new ServeProcess({
      configPath: join(dir, `${name}.toml`), storeUrl, dataDir: join(dir, 'data'), httpPort: await freePort(),
      rpcUrl: options.node.url, pollMs: options.pollMs, logPath: join(dir, `${name}.log`), nodeArgs,
    });
    try {
      await waitForHeight(serve, options.height, 500, 6 * 3_600_000);
      return serve;
    } catch (error) {
      await serve.stop();
      await pg?.stop();
      throw error;
    }
  };
  const started = performance.now();
  // The initial sync in a process of its own, stopped once at the tip: the measured one starts on a built index,
  // so its peak RSS is the mempool run's, not the bulk load's.
  if (!reused) await (await serveIn('build')).stop();
  const buildSeconds = reused ? 0 : (performance.now() - started) / 1000;
  const serve = await serveIn('serve', options.nodeArgs);
  return {
    serve, storeUrl, buildSeconds, reused,
    freePages() {
      if (!dbPath) return 0;
      const db = openSqliteDatabase(dbPath, { readonly: true, fileMustExist: true });
      try {
        return Number(db.pragma('freelist_count', { simple: true }));
      } finally {
        db.close();
      }
    },
    async stop() {
      const code = await serve.stop();
      await pg?.stop();
      if (dbPath && !options.keptFile && !options.keep) {
        // The file, its WAL and the writer lock beside it; the logs stay.
        for (const name of readdirSync(dir)) if (name.startsWith(basename(dbPath))) rmSync(join(dir, name), { force: true });
      }
      return code;
    },
  };
}

async function freshDatabase(pg: Pg, name: string): Promise<string> {
  const { default: pgModule } = await import('pg');
  const admin = new pgModule.Client({ connectionString: pg.url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return pg.urlFor(name);
}

/**
 * Waits (up to `timeoutMs`) until the service has given back the free pages its bulk load left (it does so a chunk at a
 * time after start, each chunk a write transaction: sqlite-page-return.ts): a service that has run for a while has
 * done so, and the mempool is measured without it. Done when none are left or the count has not moved for 10 s (pages
 * freed by ordinary deletes, such as the last run's mempool, stay on the free list for reuse and are not given back).
 * Returns the free pages at the start and at the end.
 */
export async function settle(index: RunningIndex, timeoutMs: number): Promise<{ before: number; after: number; seconds: number }> {
  const started = performance.now();
  const before = index.freePages();
  let after = before;
  let unchangedSince = performance.now();
  while (after > 0 && performance.now() - unchangedSince < 10_000 && performance.now() - started < timeoutMs) {
    await delay(2000);
    const now = index.freePages();
    if (now !== after) unchangedSince = performance.now();
    after = now;
  }
  return { before, after, seconds: (performance.now() - started) / 1000 };
}
