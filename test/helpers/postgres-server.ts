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
  /** URL of another database on the same server. */
  urlFor(database: string): string;
  /** Stops the server as a crash would (immediate mode), waits `downMs`, starts it again on the same port and data. */
  restart(downMs: number): Promise<void>;
  stop(): Promise<void>;
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

export async function startPostgres(): Promise<PostgresServer> {
  const bin = findBinDir();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-pg-'));
  const data = join(dir, 'data');
  const run = (tool: string, args: string[]): void => {
    const command = join(bin, tool);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe', cwd: dir });
    else execFileSync(command, args, { stdio: 'pipe', cwd: dir });
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL: ${String((error as { stderr?: Buffer }).stderr ?? error)}`);
  }
  const urlFor = (database: string): string => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  return {
    url: urlFor('postgres'),
    urlFor,
    async restart(downMs: number) {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      await new Promise((resolve) => setTimeout(resolve, downMs));
      run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
    },
    async stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
