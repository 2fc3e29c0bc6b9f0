/**
 * `outpoint serve` as operators run it: a child process with a configuration file, on a free loopback port,
 * ready once its v2 API answers for `readyNetwork`. `stop` sends SIGTERM and waits for the exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port.js';
import { waitFor } from './regtest-node.js';

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly port: number;
  readonly url: string;
  /** stderr so far (the log). */
  readonly log: string[];
  stop(): Promise<void>;
}

const REPO = new URL('../..', import.meta.url).pathname;

export async function startServe(config: string, options: { apiOnly?: boolean; readyNetwork?: string; env?: Record<string, string> } = {}): Promise<ServeProcess> {
  const port = await freePort();
  const log: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', 'serve', '--config', config, ...(options.apiOnly ? ['--api-only'] : [])], {
    cwd: REPO,
    env: { ...process.env, ...options.env, OUTPOINT_HTTP_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitFor(
      async () => (await fetch(`${url}/api/v2/get_info/${options.readyNetwork ?? 'LTCTEST'}`).then((r) => r.ok).catch(() => false)),
      60_000,
      `serve on ${port}: ${log.join('').slice(-300)}`,
      100,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, port, url, log, stop };
}
