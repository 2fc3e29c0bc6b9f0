/**
 * `outpoint COMMAND …` as operators run it (bin/outpoint.js in a child process), and throwaway configuration files
 * naming a store and a litecoind -regtest node. Everything lives in one temp dir that `cleanup` removes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO = new URL('../..', import.meta.url).pathname;

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/outpoint.js', ...args], { cwd: REPO, env: { ...process.env, OUTPOINT_MARKET_SOURCES: '', ...env }, maxBuffer: 1 << 24 },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

export class CliConfigs {
  readonly dir = mkdtempSync(join(tmpdir(), 'outpoint-cli-'));
  private n = 0;

  /** A config file with its own data dir: the store at `storeUrl`, LTCTEST on the node at `rpcUrl`. */
  write(storeUrl: string, rpcUrl: string): string {
    const name = `c${++this.n}`;
    const data = join(this.dir, name);
    const file = join(this.dir, `${name}.toml`);
    writeFileSync(file, `data_dir = "${data}"
[store]
url = "${storeUrl}"
[http]
rate_limit_per_second = 0
[networks.LTCTEST]
chain = "regtest"
rpc_url = "${rpcUrl}"
poll_ms = 100
`);
    return file;
  }

  path(name: string): string {
    return join(this.dir, name);
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
