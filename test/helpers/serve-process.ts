/** `outpoint serve` as operators run it: a child process on a free port with a TOML config, stopped with SIGTERM. */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port.js';
import { waitFor } from './regtest-node.js';

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly port: number;
  /** stderr so far (log lines). */
  readonly log: string[];
  stop(): Promise<void>;
}

export async function startServe(configFile: string, args: readonly string[] = []): Promise<ServeProcess> {
  const port = await freePort();
  const log: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', 'serve', '--config', configFile, ...args], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, OUTPOINT_HTTP_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
      return fetch(`http://127.0.0.1:${port}/api/v2/get_price`).then((r) => r.ok).catch(() => false);
    }, 30_000, `serve on ${port}`);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}: ${log.join('').slice(-500)}`);
  }
  return { child, port, log, stop };
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
