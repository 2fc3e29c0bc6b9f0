/**
 * A throwaway PostgreSQL cluster for tests: a fresh data directory in a temp dir, started on a free port (socket in
 * the dir), fsync off. Throws (so tests fail, not skip) when PostgreSQL is not installed. Works as root (the server
 * runs as the `postgres` user via runuser) and as a normal user.
 *
 * initdb runs once per machine and PostgreSQL version: its output (an empty cluster) is kept as a template in the
 * user's cache (~/.cache/outpoint/pg-template-<version>) and each server starts on a copy of it, the same cluster a
 * new initdb would make, in a fraction of its time (initdb was most of a start, and some 30 test files start one).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
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

/** Runs a PostgreSQL tool in `cwd`, as the postgres user when this process is root. */
function runner(bin: string, asRoot: boolean, cwd: string): (tool: string, args: string[]) => void {
  return (tool, args) => {
    const command = join(bin, tool);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe', cwd });
    else execFileSync(command, args, { stdio: 'pipe', cwd });
  };
}

function postgresOwner(): { uid: number; gid: number } {
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  };
}

/**
 * The initdb'ed empty cluster of this PostgreSQL version, made once: initdb writes into a temp dir (the postgres user
 * may not enter the cache, e.g. /root's), the result is copied beside the template and renamed in, so concurrent
 * starts never see half of one.
 */
function clusterTemplate(bin: string, asRoot: boolean): string {
  const version = execFileSync(join(bin, 'initdb'), ['--version'], { encoding: 'utf8' }).trim().replace(/\W+/g, '-');
  const cache = process.env['OUTPOINT_CACHE_DIR'] ?? join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'outpoint');
  const template = join(cache, `pg-template-${version}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  mkdirSync(cache, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'outpoint-initdb-'));
  const copy = `${template}.${process.pid}.tmp`;
  try {
    if (asRoot) {
      const { uid, gid } = postgresOwner();
      chownSync(scratch, uid, gid);
    }
    runner(bin, asRoot, scratch)('initdb', ['-D', join(scratch, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    cpSync(join(scratch, 'data'), copy, { recursive: true, preserveTimestamps: true });
    renameSync(copy, template);
  } catch (error) {
    if (!existsSync(join(template, 'PG_VERSION'))) throw error; // another process made it first: use theirs
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    rmSync(copy, { recursive: true, force: true });
  }
  return template;
}

export async function startPostgres(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const bin = findBinDir();
  const asRoot = process.getuid?.() === 0;
  const dir = ownedTempDir(asRoot);
  const data = join(dir, 'data');
  try {
    // preserveTimestamps and the owner: a copy is the cluster initdb made (owned by postgres when we are root).
    cpSync(clusterTemplate(bin, asRoot), data, { recursive: true, preserveTimestamps: true });
    // PostgreSQL refuses a data directory others can read; Node 24's cpSync makes it with the umask's mode (0755).
    chmodSync(data, 0o700);
    if (asRoot) {
      const { uid, gid } = postgresOwner();
      execFileSync('chown', ['-R', `${uid}:${gid}`, data]);
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL: ${String((error as { stderr?: Buffer }).stderr ?? error)}`);
  }
  const settings = Object.entries(options.settings ?? {}).map(([name, value]) => ` -c ${name}=${value}`).join('');
  return startCluster(bin, asRoot, dir, `${options.replication ? '' : ' -c full_page_writes=off'}${settings}`);
}

/** A temp dir the server's user owns (as root, the server runs as `postgres` via runuser). */
function ownedTempDir(asRoot: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-pg-'));
  if (asRoot) {
    const { uid, gid } = postgresOwner();
    chownSync(dir, uid, gid);
  }
  return dir;
}

/** Starts the cluster in `dir`/data on a free port; `extra`: more server options. */
async function startCluster(bin: string, asRoot: boolean, dir: string, extra: string): Promise<PostgresServer> {
  const data = join(dir, 'data');
  const run = runner(bin, asRoot, dir);
  const log = join(dir, 'server.log');
  let port = 0;
  let options = '';
  const start = (): void => run('pg_ctl', ['-D', data, '-o', options, '-l', log, '-w', '-t', '60', 'start']);
  const kill = (): void => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  // A free port can be taken by another test's server between the probe and the bind (tests start servers at once on
  // a busy machine): try again on a new one, and say what the server logged when it gives up.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off${extra}`;
    try {
      start();
      break;
    } catch (error) {
      const logged = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-5).join('\n') : '(no server log)';
      if (attempt < 3) continue;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`could not start PostgreSQL: ${String((error as { stderr?: Buffer }).stderr ?? error)}\nserver log: ${logged}`);
    }
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
      const replicaDir = ownedTempDir(asRoot);
      try {
        runner(bin, asRoot, replicaDir)('pg_basebackup', ['-D', join(replicaDir, 'data'), '-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-R', '-X', 'stream', '--no-sync', '--checkpoint=fast']);
      } catch (error) {
        rmSync(replicaDir, { recursive: true, force: true });
        throw new Error(`pg_basebackup failed: ${String((error as { stderr?: Buffer }).stderr ?? error)}`);
      }
      // A replica reconnects to its primary every second (default 5 s) after the primary comes back.
      return startCluster(bin, asRoot, replicaDir, ' -c wal_retrieve_retry_interval=1s');
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
