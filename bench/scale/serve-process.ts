/**
 * `outpoint serve` as a user runs it (bin/outpoint.js, a TOML config), for the scale benchmark: its log lines with
 * the time they arrived, its peak RSS (VmHWM of the process: everything the service holds, worker threads included;
 * not the PostgreSQL server's), and a clean stop (SIGTERM, as an operator would).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync, createWriteStream, type WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServeOptions {
  readonly configPath: string;
  readonly storeUrl: string;
  readonly dataDir: string;
  readonly httpPort: number;
  readonly rpcUrl: string;
  /** Polling interval of the node (ms): small, so following block by block is not paced by the poll. */
  readonly pollMs: number;
  /** Every log line also goes here. */
  readonly logPath: string;
  /** The network served (default BTCTEST, the scale chain's). */
  readonly network?: string;
  /** `[store] raw_txs` (default the service's: "store"). */
  readonly rawTxs?: 'store' | 'node';
  /** `[realtime] event_log_hours` (default the service's: 24; 0 keeps no event log). */
  readonly eventLogHours?: number;
  /** `[store] sqlite_cache_mb` (default the service's). */
  readonly sqliteCacheMb?: number;
  /** Node options before the script (e.g. `--cpu-prof`, which NODE_OPTIONS does not allow). */
  readonly nodeArgs?: readonly string[];
}

export interface LogLine {
  /** Milliseconds since the process was spawned, when the line arrived. */
  readonly at: number;
  readonly text: string;
}

export class ServeProcess {
  readonly lines: LogLine[] = [];
  readonly baseUrl: string;
  private readonly child: ChildProcess;
  private readonly spawnedAt: number;
  private readonly log: WriteStream;
  private exitCode: number | null = null;
  private peakRss = 0;
  private readonly rssTimer: NodeJS.Timeout;
  /** The highest resident size seen by the once-a-second sampling, and when (ms since spawn). */
  readonly rssPeakSample = { bytes: 0, at: 0 };

  constructor(options: ServeOptions) {
    writeFileSync(
      options.configPath,
      [
        `data_dir = "${options.dataDir}"`,
        '[store]',
        `url = "${options.storeUrl}"`,
        ...(options.rawTxs ? [`raw_txs = "${options.rawTxs}"`] : []),
        ...(options.sqliteCacheMb ? [`sqlite_cache_mb = ${options.sqliteCacheMb}`] : []),
        // Text lines, which progress-log.ts and index-serve.ts read (off a terminal the default is JSON).
        '[log]',
        'format = "text"',
        '[http]',
        'host = "127.0.0.1"',
        `port = ${options.httpPort}`,
        'rate_limit_per_second = 0',
        // Benches measure the service, not exchanges this machine cannot reach.
        '[market]',
        'sources = []',
        ...(options.eventLogHours !== undefined ? ['[realtime]', `event_log_hours = ${options.eventLogHours}`] : []),
        `[networks.${options.network ?? 'BTCTEST'}]`,
        'chain = "regtest"',
        `rpc_url = "${options.rpcUrl}"`,
        `poll_ms = ${options.pollMs}`,
        '',
      ].join('\n'),
    );
    this.baseUrl = `http://127.0.0.1:${options.httpPort}`;
    this.log = createWriteStream(options.logPath);
    this.spawnedAt = performance.now();
    // Its stdout is Node's own (e.g. --trace-gc lines: the service logs to stderr), kept beside the log.
    const stdout = openSync(`${options.logPath}.stdout`, 'w');
    this.child = spawn(process.execPath, [...(options.nodeArgs ?? []), 'bin/outpoint.js', 'serve', '--config', options.configPath], {
      cwd: ROOT,
      stdio: ['ignore', stdout, 'pipe'],
    });
    closeSync(stdout);
    let partial = '';
    this.child.stderr!.on('data', (chunk: Buffer) => {
      const at = performance.now() - this.spawnedAt;
      const text = partial + chunk.toString();
      const parts = text.split('\n');
      partial = parts.pop()!;
      for (const line of parts) {
        this.lines.push({ at, text: line });
        this.log.write(`${line}\n`);
      }
    });
    this.child.on('exit', (code, signal) => {
      this.exitCode = code ?? (signal ? 128 : 0);
      clearInterval(this.rssTimer);
    });
    this.rssTimer = setInterval(() => this.sampleRss(), 1000);
    this.rssTimer.unref();
  }

  private sampleRss(): void {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.child.pid}/status`, 'utf8'));
      const bytes = match ? Number(match[1]) * 1024 : 0;
      if (bytes > this.rssPeakSample.bytes) Object.assign(this.rssPeakSample, { bytes, at: this.elapsed() });
    } catch {
      // exited
    }
  }

  /** The serve process's pid (for /proc readings). */
  get pid(): number {
    return this.child.pid!;
  }

  /** Milliseconds since spawn. */
  elapsed(): number {
    return performance.now() - this.spawnedAt;
  }

  get exited(): boolean {
    return this.exitCode !== null;
  }

  /** Peak resident memory of the serve process so far (bytes), from /proc (Linux). */
  peakRssBytes(): number {
    try {
      const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
      const match = /VmHWM:\s+(\d+) kB/.exec(status);
      if (match) this.peakRss = Math.max(this.peakRss, Number(match[1]) * 1024);
    } catch {
      // exited: the last reading stands
    }
    return this.peakRss;
  }

  /** SIGTERM and wait for a clean exit (SIGKILL after `graceMs`); returns the exit code. */
  async stop(graceMs = 300_000): Promise<number> {
    this.peakRssBytes();
    if (!this.exited) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      // Unreferenced: a pending grace timer kept the bench alive for 5 minutes after its last run.
      await Promise.race([exited, delay(graceMs, undefined, { ref: false })]);
      if (!this.exited) {
        this.child.kill('SIGKILL');
        await exited;
      }
    }
    await new Promise((resolve) => this.log.end(resolve));
    return this.exitCode ?? -1;
  }
}
