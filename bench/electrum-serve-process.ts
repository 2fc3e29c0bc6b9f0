/**
 * Outpoint's Electrum server as operators run it, for the Electrum bench: `outpoint serve --api-only` on the cached
 * SQLite index of the bench chain (no indexer: the index does not move), its Electrum listener on a free port, in
 * `processes` processes (`[electrum] processes`). Its CPU is the serving process's and its workers'.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '../test/helpers/free-port.js';
import { BENCH_INDEX } from './bench-chain.js';
import { ElectrumClient } from './electrum-client.js';
import { treeCpuMicros } from './process-cpu.js';

const ROOT = new URL('..', import.meta.url).pathname;

export interface ServedElectrum {
  readonly name: string;
  readonly host: string;
  readonly port: number;
  cpuMicros(): number;
  stop(): Promise<void>;
}

export interface ServeOptions {
  /** Another checkout to run (the same bench against an older commit: ELECTRUM_BENCH_BEFORE); default this one. */
  readonly root?: string;
  /** Its name in the tables (default "Outpoint", "Outpoint×n"). */
  readonly name?: string;
  /** Node options of the serving process (bench/electrum-profile.ts: --cpu-prof). */
  readonly nodeArgs?: readonly string[];
  /** More lines of the [electrum] table. */
  readonly electrumConfig?: string;
}

export async function serveElectrum(rpcPort: number, tipHeight: number, processes: number, options: ServeOptions = {}): Promise<ServedElectrum> {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-electrum-bench-'));
  const port = await freePort();
  const config = join(dir, 'outpoint.toml');
  writeFileSync(config, `data_dir = "${dir}"
[store]
url = "sqlite:${BENCH_INDEX}"
[http]
port = ${await freePort()}
rate_limit_per_second = 0
[market]
sources = []
[electrum]
processes = ${processes}
${options.electrumConfig ?? ''}
[networks.LTCTEST]
chain = "regtest"
rpc_url = "http://peer:peerpass@127.0.0.1:${rpcPort}/"
electrum_tcp = "127.0.0.1:${port}"
`);
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), 'bin/outpoint.js', 'serve', '--api-only', '--config', config], { cwd: options.root ?? ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (const deadline = Date.now() + 120_000; ; await delay(200)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`outpoint serve did not answer Electrum: ${log.slice(-1500)}`);
    }
    const client = await ElectrumClient.connect('127.0.0.1', port, 1000).catch(() => null);
    const tip = await client?.request<{ height: number }>('blockchain.headers.subscribe').catch(() => null);
    client?.close();
    if (tip?.height === tipHeight) break;
  }
  const name = options.name ?? 'Outpoint';
  return { name: processes === 1 ? name : `${name}×${processes}`, host: '127.0.0.1', port, cpuMicros: () => treeCpuMicros(child.pid!), stop };
}
