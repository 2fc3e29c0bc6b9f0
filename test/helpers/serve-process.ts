/**
 * `outpoint serve` as a child process on a free loopback port with a given configuration file body; its stderr
 * (the service's log) is kept for assertions. stop() sends SIGTERM and waits for the exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface ServeProcess {
  /** http://127.0.0.1:PORT (also the configured public_url). */
  readonly url: string;
  /** Everything the process wrote to stderr so far. */
  log(): string;
  stop(): Promise<void>;
}

/** `config` is the TOML body without [http] host/port/public_url, which are chosen here; `readyPath` must answer 200. */
export async function startServe(config: string, readyPath = '/dashboard/sign-in'): Promise<ServeProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-serve-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const file = join(dir, 'outpoint.toml');
  writeFileSync(file, `data_dir = "${dir}"\n${config}\n[http]\nhost = "127.0.0.1"\nport = ${port}\npublic_url = "${url}"\nrate_limit_per_second = 0\n`);
  const chunks: string[] = [];
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', 'serve', '--config', file], {
    cwd: new URL('../..', import.meta.url).pathname,
    // Tests never reach the internet: no exchange polling (prices are on by default).
    env: { ...process.env, OUTPOINT_MARKET_SOURCES: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${url}${readyPath}`).then((r) => r.ok, () => false);
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`outpoint serve did not start: ${chunks.join('').slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    log: () => chunks.join(''),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
