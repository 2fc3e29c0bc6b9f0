/**
 * `outpoint serve` as an operator runs it (bin/outpoint.js, a TOML file) on the node under test, with the embedded
 * SQLite store or a fresh database on a PostgreSQL server of its own; its CPU time and resident memory read from /proc
 * (all threads), and a second PostgreSQL figure: the server's processes, where that engine's SQL runs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { statOf } from '../process-cpu.js';
import { startServeWithBody, type ServeProcess } from '../../test/helpers/serve-process.js';
import type { PostgresServer } from '../../test/helpers/postgres-server.js';
import type { NodeUnderTest, Notify } from './node-under-test.js';

export type Engine = 'sqlite' | 'postgres';

export interface ServiceUnderTest {
  readonly serve: ServeProcess;
  readonly engine: Engine;
  /** CPU seconds so far: the service's process (all threads), and PostgreSQL's server processes (0 on SQLite). */
  cpu(): { service: number; database: number };
  rssBytes(): number;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  readonly engine: Engine;
  readonly notify: Notify;
  readonly pollMs: number;
  /** Node options of the service (`--cpu-prof --cpu-prof-dir=…`). */
  readonly nodeArgs?: readonly string[];
}

export async function startService(nut: NodeUnderTest, options: ServiceOptions): Promise<ServiceUnderTest> {
  let pg: PostgresServer | null = null;
  let store = '';
  if (options.engine === 'postgres') {
    const { startPostgres } = await import('../../test/helpers/postgres-server.js');
    pg = await startPostgres({ settings: { shared_buffers: '1GB', max_wal_size: '4GB' } });
    store = `[store]\nurl = "${pg.url}"\n`;
  }
  try {
    const body = `${store}[market]\nsources = []\n${nut.networkConfig(options.notify, options.pollMs)}`;
    const serve = await startServeWithBody(body, { readyNetwork: nut.network, nodeArgs: options.nodeArgs ?? [] });
    const pid = String(serve.child.pid);
    return {
      serve, engine: options.engine,
      cpu: () => ({ service: (statOf(pid)?.micros ?? 0) / 1e6, database: pg ? serverCpuMicros(pg.port) / 1e6 : 0 }),
      rssBytes: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024,
      async stop() {
        await serve.stop();
        await pg?.stop();
      },
    };
  } catch (err) {
    await pg?.stop();
    throw err;
  }
}

/** CPU microseconds of the PostgreSQL server listening on `port`: its postmaster (found by its argv) and children. */
function serverCpuMicros(port: number): number {
  const pids = readdirSync('/proc').filter((pid) => /^\d+$/.test(pid));
  const postmaster = pids.find((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return argv[0]!.endsWith('/postgres') && argv.includes(String(port));
    } catch {
      return false;
    }
  });
  if (!postmaster) return 0;
  let total = statOf(postmaster)?.micros ?? 0;
  for (const pid of pids) {
    const stat = statOf(pid);
    if (stat && String(stat.ppid) === postmaster) total += stat.micros;
  }
  return total;
}
