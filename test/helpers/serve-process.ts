/**
 * `outpoint serve` as operators run it: a child process with a configuration file, on a free loopback port,
 * ready once a path answers 200 (by default the v2 API of `readyNetwork`). Its stderr (the service's log) is kept
 * for assertions. `stop` sends SIGTERM and waits for the exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { waitFor } from './regtest-node.js';

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** stderr so far (the log), as it arrived. */
  readonly log: string[];
  stop(): Promise<void>;
}

export interface ServeOptions {
  readonly apiOnly?: boolean;
  /** A path that answers 200 once serve is up; default `/api/v2/get_info/{readyNetwork}`. */
  readonly readyPath?: string;
  /** Instead of readyPath: true once serve is up (a process whose HTTP port speaks TLS). */
  readonly readyProbe?: (url: string) => Promise<boolean>;
  /** Default LTCTEST. */
  readonly readyNetwork?: string;
  readonly env?: Record<string, string>;
  /** Default a free loopback port. */
  readonly port?: number;
  /** Node.js options before the script (`--import` of a test preload). */
  readonly nodeArgs?: readonly string[];
  /** startServeWithBody: more `[http]` keys as TOML lines (`trust_proxy = ["127.0.0.1"]`), over its defaults. */
  readonly http?: Readonly<Record<string, string>>;
  /**
   * The program and its arguments before `serve`, run in `cwd` (an installed package: `['npx', 'outpoint']`); it
   * gets its own process group, which stop() signals whole (npx's child included). Default: this checkout's
   * bin/outpoint.js under this Node.
   */
  readonly command?: { readonly argv: readonly [string, ...string[]]; readonly cwd: string };
}

const REPO = new URL('../..', import.meta.url).pathname;
// bin/outpoint.js as users run it: the compiled build when `npm run build` made it from these sources, else tsx.

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Serves with the configuration file `config`; the port comes from OUTPOINT_HTTP_PORT (public_url stays the file's). */
export async function startServe(config: string, options: ServeOptions = {}): Promise<ServeProcess> {
  const port = options.port ?? (await freePort());
  const log: string[] = [];
  const [program, ...before] = options.command?.argv ?? [process.execPath, ...(options.nodeArgs ?? []), 'bin/outpoint.js'];
  const group = options.command !== undefined;
  const child = spawn(program, [...before, 'serve', '--config', config, ...(options.apiOnly ? ['--api-only'] : [])], {
    cwd: options.command?.cwd ?? REPO,
    env: { ...process.env, ...options.env, OUTPOINT_HTTP_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: group,
  });
  child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (group) process.kill(-child.pid!, 'SIGTERM');
    else child.kill('SIGTERM');
    await exited;
    // npx may exit before the service it started has finished stopping: wait for the whole group.
    if (group) await waitFor(() => !groupAlive(child.pid!), 30_000, 'serve process group to exit', 50);
  };
  const readyPath = options.readyPath ?? `/api/v2/get_info/${options.readyNetwork ?? 'LTCTEST'}`;
  try {
    await waitFor(
      async () => {
        // A process that exited (a configuration error) will not become ready: say so now, not after the timeout.
        if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
        if (options.readyProbe) return options.readyProbe(url);
        return fetch(`${url}${readyPath}`).then((r) => r.ok).catch(() => false);
      },
      60_000,
      `serve on ${port}: ${log.join('').slice(-2000)}`,
      100,
    );
  } catch (error) {
    await stop();
    // The log as it was when waiting ended (the message above was made before the process wrote anything).
    throw new Error(`${(error as Error).message}; serve's log: ${log.join('').slice(-2000)}`);
  }
  return { child, port, url, log, stop };
}

/**
 * Serves a configuration body (TOML without [http] host/port/public_url, chosen here: public_url is the listening
 * URL, so same-origin checks hold) from a temp data dir that stop() removes. Exchange polling is off: tests never
 * reach the internet.
 */
export async function startServeWithBody(body: string, options: ServeOptions = {}): Promise<ServeProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-serve-'));
  try {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const file = join(dir, 'outpoint.toml');
    const http = Object.entries({ rate_limit_per_second: '0', ...options.http }).map(([key, value]) => `${key} = ${value}\n`).join('');
    writeFileSync(file, `data_dir = "${dir}"\n${body}\n[http]\nhost = "127.0.0.1"\nport = ${port}\npublic_url = "${url}"\n${http}`);
    const started = await startServe(file, { ...options, port, env: { OUTPOINT_MARKET_SOURCES: '', ...options.env } });
    return {
      ...started,
      async stop() {
        await started.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

export interface HttpReply {
  readonly status: number;
  readonly headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are checked field by field
  readonly body: any;
}

export async function httpJson(port: number, path: string, init: RequestInit = {}): Promise<HttpReply> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, init);
  return { status: response.status, headers: response.headers, body: await response.json() };
}
