/**
 * A Fulcrum Electrum server (FULCRUM_BIN) indexing the bench chain from an empty datadir, as the same-run reference of
 * bench/fulcrum-peer.bench.ts: its config written beside the datadir, the time from spawn to answering at the node's
 * tip, its peak RSS (VmHWM) and the datadir's disk use after a clean stop. The directory is removed by `remove()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ElectrumClient } from './electrum-client.js';
import { statOf } from './process-cpu.js';

export interface FulcrumOptions {
  readonly bin: string;
  readonly rpcPort: number;
  readonly rpcUser: string;
  readonly rpcPassword: string;
  readonly tcpPort: number;
  /** Where the throwaway directory (config, log, datadir) is made; default the system's temp dir. */
  readonly parentDir?: string;
}

/**
 * Disk use of a directory tree as `du` counts it (allocated 512-byte blocks), the files' apparent size, and the
 * allocated bytes per kind of file (its name with digits as #: RocksDB's `#.sst` tables, `#.log` write-ahead logs,
 * `LOG` info logs...), to tell the index from what a small database carries at any size.
 */
export function diskUsage(dir: string): { allocated: number; apparent: number; byKind: Map<string, number> } {
  let allocated = 0;
  let apparent = 0;
  const byKind = new Map<string, number>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const stat = statSync(join(entry.parentPath, entry.name));
    allocated += stat.blocks * 512;
    apparent += stat.size;
    const kind = entry.name.replace(/\d+/g, '#');
    byKind.set(kind, (byKind.get(kind) ?? 0) + stat.blocks * 512);
  }
  return { allocated, apparent, byKind };
}

export class FulcrumProcess {
  readonly host = '127.0.0.1';
  readonly dir: string;
  readonly dataDir: string;
  readonly logPath: string;
  private readonly child: ChildProcess;
  private readonly spawnedAt = performance.now();
  private exitCode: number | null = null;
  private readonly exited: Promise<number>;
  private peakRss = 0;

  constructor(readonly options: FulcrumOptions) {
    this.dir = mkdtempSync(join(options.parentDir ?? tmpdir(), 'fulcrum-data-'));
    this.dataDir = join(this.dir, 'db');
    this.logPath = join(this.dir, 'fulcrum.log');
    const config = join(this.dir, 'fulcrum.conf');
    writeFileSync(config, [
      `datadir = ${this.dataDir}`,
      `bitcoind = 127.0.0.1:${options.rpcPort}`,
      `rpcuser = ${options.rpcUser}`,
      `rpcpassword = ${options.rpcPassword}`,
      `tcp = ${this.host}:${options.tcpPort}`,
      // A private server on loopback: no peer discovery, and the bench's 32 connections come from one IP.
      'peering = false',
      'announce = false',
      'max_clients_per_ip = 0',
      '',
    ].join('\n'));
    const log = createWriteStream(this.logPath);
    this.child = spawn(options.bin, [config], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.pipe(log);
    this.child.stderr!.pipe(log);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => resolve((this.exitCode = code ?? (signal ? 128 : -1))));
      this.child.once('error', () => resolve((this.exitCode = -1))); // not started (FULCRUM_BIN missing?)
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Seconds since spawn. */
  elapsed(): number {
    return (performance.now() - this.spawnedAt) / 1000;
  }

  /** CPU time of all its threads so far (utime + stime of /proc/<pid>/stat), microseconds. */
  cpuMicros(): number {
    const stat = statOf(String(this.pid));
    if (!stat) throw new Error(`Fulcrum is not running; log: ${this.logPath}`);
    return stat.micros;
  }

  /** VmHWM of the process (its own peak resident set; it is one process with threads). */
  peakRssBytes(): number {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      if (match) this.peakRss = Math.max(this.peakRss, Number(match[1]) * 1024);
    } catch {
      // exited: keep the last reading
    }
    return this.peakRss;
  }

  /**
   * Seconds from spawn until Fulcrum answers `blockchain.headers.subscribe` at `tipHeight`. Fulcrum opens its
   * TCP port only once its initial sync has reached the node's tip, so the probe polls the connect first.
   */
  async waitSynced(tipHeight: number, timeoutMs = 900_000): Promise<{ seconds: number; version: string }> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (this.exitCode !== null) throw new Error(`Fulcrum exited with ${this.exitCode}; log: ${this.logPath}`);
      if (performance.now() > deadline) throw new Error(`Fulcrum not at height ${tipHeight} within ${timeoutMs / 1000} s; log: ${this.logPath}`);
      const client = await ElectrumClient.connect(this.host, this.options.tcpPort, 1000).catch(() => null);
      if (client) {
        try {
          const version = await client.request<[string, string]>('server.version', ['outpoint-bench', '1.4']);
          const tip = await client.request<{ height: number }>('blockchain.headers.subscribe');
          if (tip.height === tipHeight) return { seconds: this.elapsed(), version: version[0] };
        } catch {
          // not ready yet
        } finally {
          client.close();
        }
      }
      this.peakRssBytes();
      await delay(50);
    }
  }

  /** SIGTERM (Fulcrum flushes and closes its database on it), then the exit code; SIGKILL after a minute. */
  async stop(): Promise<number> {
    this.peakRssBytes();
    if (this.exitCode !== null) return this.exitCode;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 60_000);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
