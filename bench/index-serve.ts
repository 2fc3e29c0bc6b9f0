/**
 * The index bench timed as a user waits: the real `node bin/outpoint.js serve` (a TOML config, the node's RPC URL)
 * on an empty store, from spawning the process to address queries answering at the node's tip (get_info reports
 * the tip and get_address_balance answers for every one of the chain's hot addresses). Also: when the process first
 * answered HTTP at all (start-up), the build-indexes time from its log, its peak RSS (VmHWM), and the store's size
 * after a clean stop (SIGTERM; the SQLite WAL is checkpointed by the close).
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ServeProcess } from './scale/serve-process.js';

export interface ServeFigures {
  /** Spawn → first HTTP answer (any status): process start-up, TypeScript loading included. */
  readonly startSeconds: number;
  /** Spawn → address queries answering at the tip. */
  readonly readySeconds: number;
  /** From the service's 'indexes built' line, when logged. */
  readonly buildSeconds: number | null;
  readonly peakRssBytes: number;
  /** SQLite: the file after a clean stop; PostgreSQL: null (the caller reads pg_database_size). */
  readonly fileBytes: number | null;
  readonly exitCode: number;
}

export interface ServeRunOptions {
  readonly network: string;
  readonly rpcUrl: string;
  /** `sqlite:/path` or a postgres:// URL. */
  readonly storeUrl: string;
  readonly dir: string;
  readonly port: number;
  readonly tipHeight: number;
  readonly addresses: readonly string[];
}

async function getJson(url: string): Promise<{ status: number; body: unknown } | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return { status: res.status, body: await res.json().catch(() => null) };
  } catch {
    return null;
  }
}

function dataOf(answer: { status: number; body: unknown } | null): Record<string, unknown> | null {
  const body = answer?.body as { status?: string; data?: Record<string, unknown> } | null;
  return answer?.status === 200 && body?.status === 'success' && body.data ? body.data : null;
}

export async function serveRun(o: ServeRunOptions): Promise<ServeFigures> {
  mkdirSync(o.dir, { recursive: true });
  const serve = new ServeProcess({
    configPath: join(o.dir, 'outpoint.toml'), storeUrl: o.storeUrl, dataDir: join(o.dir, 'data'), httpPort: o.port,
    rpcUrl: o.rpcUrl, pollMs: 20, logPath: join(o.dir, 'serve.log'), network: o.network,
  });
  let startSeconds: number | null = null;
  let readySeconds: number | null = null;
  let peakRssBytes = 0;
  let exitCode = -1;
  try {
    const deadline = Date.now() + 3_600_000;
    while (readySeconds === null) {
      if (serve.exited) throw new Error(`outpoint serve exited early; log: ${join(o.dir, 'serve.log')}`);
      if (Date.now() > deadline) throw new Error('outpoint serve was not ready within an hour');
      const info = await getJson(`${serve.baseUrl}/api/v2/get_info/${o.network}`);
      if (info && startSeconds === null) startSeconds = serve.elapsed() / 1000;
      if (dataOf(info)?.['blocks'] === o.tipHeight) {
        const balances = await Promise.all(o.addresses.map((a) => getJson(`${serve.baseUrl}/api/v2/get_address_balance/${o.network}/${a}`)));
        if (balances.every((b) => dataOf(b) !== null)) readySeconds = serve.elapsed() / 1000;
      }
      if (readySeconds === null) await delay(info ? 25 : 10);
    }
  } finally {
    peakRssBytes = serve.peakRssBytes();
    exitCode = await serve.stop();
  }
  if (process.env['INDEX_BENCH_VERBOSE'] === '1') for (const l of serve.lines) console.log(`    ${(l.at / 1000).toFixed(2).padStart(7)} s  ${l.text.slice(25, 200)}`);
  const built = serve.lines.map((l) => /indexes built .*seconds=([\d.]+)/.exec(l.text)).find((m) => m !== null);
  const dbPath = o.storeUrl.startsWith('sqlite:') ? o.storeUrl.slice('sqlite:'.length) : null;
  const fileBytes = dbPath ? [dbPath, `${dbPath}-wal`, `${dbPath}-shm`].reduce((s, p) => s + (existsSync(p) ? statSync(p).size : 0), 0) : null;
  return { startSeconds: startSeconds!, readySeconds: readySeconds!, buildSeconds: built ? Number(built[1]) : null, peakRssBytes, fileBytes, exitCode };
}

export async function newPgDatabase(server: { url: string; urlFor(db: string): string }, name: string): Promise<string> {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return server.urlFor(name);
}

/**
 * Drops a run's database once measured: left on the server, autovacuum worked through its freshly loaded tables during
 * the next run (a server shared by the runs, unlike an operator's), which then shared the two cores with it.
 */
export async function dropPgDatabase(server: { url: string }, name: string): Promise<void> {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

export async function pgDatabaseBytes(url: string): Promise<number> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('CHECKPOINT');
  const row = (await client.query('SELECT pg_database_size(current_database()) AS size')).rows[0] as { size: string };
  await client.end();
  return Number(row.size);
}

/** The chain's hot addresses (make-chain.sh's summary): the queries that must answer for the index to count as ready. */
export function hotAddresses(chainDir: string): string[] {
  return (JSON.parse(readFileSync(join(chainDir, 'chain-summary.json'), 'utf8')) as { hot_addresses: string[] }).hot_addresses;
}

const ELECTRUMX_SECONDS = { low: 7.9, high: 9.6 };

export function reportServe(engine: string, f: ServeFigures, txs: number, pgBytes: number | null): void {
  const disk = f.fileBytes ?? pgBytes;
  const parts = [
    `ready ${f.readySeconds.toFixed(2)} s from spawn (${Math.round(txs / f.readySeconds)} tx/s)`,
    `HTTP up after ${f.startSeconds.toFixed(2)} s`,
    ...(f.buildSeconds !== null ? [`indexes built in ${f.buildSeconds.toFixed(2)} s`] : []),
    `peak RSS ${mib(f.peakRssBytes)}`,
    ...(disk !== null ? [`disk ${mib(disk)} (${Math.round(disk / txs)} B/tx)`] : []),
    `ElectrumX ${ELECTRUMX_SECONDS.low}-${ELECTRUMX_SECONDS.high} s: ${(ELECTRUMX_SECONDS.low / f.readySeconds).toFixed(2)}-${(ELECTRUMX_SECONDS.high / f.readySeconds).toFixed(2)}x`,
  ];
  if (f.exitCode !== 0) parts.push(`exit code ${f.exitCode}`);
  console.log(`  serve/${engine.padEnd(8)} ${parts.join(', ')}`);
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
