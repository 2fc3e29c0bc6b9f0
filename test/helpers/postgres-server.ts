/**
 * A throwaway PostgreSQL cluster for tests: initdb into a temp dir, start on a free port (socket in the dir),
 * fsync off. Throws (so tests fail, not skip) when PostgreSQL is not installed. Works as root (the server runs
 * as the `postgres` user via runuser) and as a normal user.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface PostgresServer {
  /** Connection URL of the `postgres` database as superuser `postgres`. */
  readonly url: string;
  readonly port: number;
  /** URL of another database on the same server. */
  urlFor(database: string): string;
  /** Stops the server as a crash would (immediate mode), waits `downMs`, starts it again on the same port and data. */
  restart(downMs: number): Promise<void>;
  /** Stops the server as a crash would (immediate mode); start() brings it back on the same port and data. */
  kill(): void;
  start(): void;
  /**
   * A streaming replica of this server (a hot standby): `pg_basebackup -R` into a data dir of its own, started on
   * another port, as `pg_createcluster` + `pg_basebackup` would set one up. Needs `startPostgres({ replication: true })`.
   */
  startReplica(): Promise<PostgresServer>;
  stop(): Promise<void>;
}

export interface PostgresServerOptions {
  /**
   * A primary that replicas can copy and follow: full_page_writes stays on (a base backup of a server without it
   * cannot be replayed safely). fsync stays off: these servers hold nothing worth a crash-safe disk.
   */
  readonly replication?: boolean;
  /** More server settings (`-c name=value`), e.g. shared_buffers for a benchmark. */
  readonly settings?: Readonly<Record<string, string>>;
}

function findBinDir(): string {
  const candidates = [process.env.PG_BIN_DIR];
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    for (const v of readdirSync(root).sort((a, b) => Number(b) - Number(a))) candidates.push(join(root, v, 'bin'));
  }
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // pg_config absent: rely on the other candidates.
  }
  const found = candidates.find((dir) => dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!found) throw new Error('PostgreSQL server binaries (initdb, pg_ctl) not found; install PostgreSQL 15 or set PG_BIN_DIR');
  return found;
}

export async function startPostgres(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const bin = findBinDir();
  const dir = ownedTempDir();
  try {
    run(bin, dir, 'initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL: ${String((error as { stderr?: Buffer }).stderr ?? error)}`);
  }
  const settings = Object.entries(options.settings ?? {}).map(([name, value]) => ` -c ${name}=${value}`).join('');
  return startCluster(bin, dir, `${options.replication ? '' : ' -c full_page_writes=off'}${settings}`);
}

/** A temp dir the server's user owns (as root, the server runs as `postgres` via runuser). */
function ownedTempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  return dir;
}

function run(bin: string, dir: string, tool: string, args: string[]): void {
  const command = join(bin, tool);
  if (process.getuid?.() === 0) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe', cwd: dir });
  else execFileSync(command, args, { stdio: 'pipe', cwd: dir });
}

/** Starts the cluster in `dir`/data on a free port; `extra`: more server options. */
async function startCluster(bin: string, dir: string, extra: string): Promise<PostgresServer> {
  const data = join(dir, 'data');
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off${extra}`;
  const start = (): void => run(bin, dir, 'pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  const kill = (): void => run(bin, dir, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  try {
    start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL: ${String((error as { stderr?: Buffer }).stderr ?? error)}`);
  }
  const urlFor = (database: string): string => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  return {
    url: urlFor('postgres'),
    port,
    urlFor,
    async restart(downMs: number) {
      kill();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      start();
    },
    kill,
    start,
    async startReplica() {
      const replicaDir = ownedTempDir();
      try {
        run(bin, replicaDir, 'pg_basebackup', ['-D', join(replicaDir, 'data'), '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-R', '-X', 'stream', '--no-sync', '--checkpoint=fast']);
      } catch (error) {
        rmSync(replicaDir, { recursive: true, force: true });
        throw new Error(`pg_basebackup failed: ${String((error as { stderr?: Buffer }).stderr ?? error)}`);
      }
      // A replica reconnects to its primary every second (default 5 s) after the primary comes back.
      return startCluster(bin, replicaDir, ' -c wal_retrieve_retry_interval=1s');
    },
    async stop() {
      try {
        kill();
      } catch {
        // Already stopped (killed by the test).
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
