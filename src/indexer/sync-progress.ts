import type { Logger } from '../core/index.js';

export interface ProgressSink {
  /** A TTY shows a live bar; anything else gets a log line every `logEveryMs`. */
  readonly isTTY: boolean;
  write(text: string): void;
}

/**
 * Initial-sync progress: height/tip, blocks/s, tx/s and ETA while it runs; at the end one summary line that also
 * splits the time into waiting for the next batch (fetching and parsing not hidden behind the previous write) and
 * writing it, so an operator sees whether the node or the store sets the pace.
 */
export class SyncProgress {
  private readonly startedAt: number;
  private lastLogAt = -Infinity;
  private blocks = 0;
  private txs = 0;
  private waitingMs = 0;
  private writingMs = 0;
  private shown = false;

  private readonly label: string;
  /** Log fields naming what is synced: `network` alone (log consumers filter on it), and the phase when there is one. */
  private readonly names: { readonly network: string; readonly phase?: string };
  private readonly logEveryMs: number;
  private readonly now: () => number;

  constructor(
    network: string,
    private readonly logger: Logger,
    private readonly sink: ProgressSink | null,
    options: { readonly phase?: string; readonly logEveryMs?: number; readonly now?: () => number } = {},
  ) {
    this.label = options.phase ? `${network} ${options.phase}` : network;
    this.names = options.phase ? { network, phase: options.phase } : { network };
    this.logEveryMs = options.logEveryMs ?? 10_000;
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
  }

  /** Time spent waiting for a batch of blocks (ms). */
  waited(ms: number): void {
    this.waitingMs += ms;
  }

  /** Time spent writing a batch to the store (ms). */
  wrote(ms: number): void {
    this.writingMs += ms;
  }

  /** Records a batch; returns the estimated seconds left (null: no estimate yet). */
  update(height: number, tip: number, blocksAdded: number, txsAdded: number): number | null {
    this.blocks += blocksAdded;
    this.txs += txsAdded;
    const seconds = this.elapsedSeconds();
    const blocksPerSecond = this.blocks / seconds;
    const txPerSecond = this.txs / seconds;
    const remaining = Math.max(tip - height, 0);
    const eta = blocksPerSecond > 0 ? remaining / blocksPerSecond : Infinity;
    if (this.sink?.isTTY) {
      const width = 30;
      const done = tip > 0 ? Math.min(Math.round((height / tip) * width), width) : width;
      const bar = `${'#'.repeat(done)}${'.'.repeat(width - done)}`;
      this.sink.write(
        `\r${this.label} [${bar}] ${height}/${tip}  ${blocksPerSecond.toFixed(0)} blk/s  ${txPerSecond.toFixed(0)} tx/s  ETA ${formatEta(eta)}   `,
      );
      this.shown = true;
      return Number.isFinite(eta) ? Math.round(eta) : null;
    }
    const now = this.now();
    if (now - this.lastLogAt >= this.logEveryMs || remaining === 0) {
      this.lastLogAt = now;
      this.logger.info('sync progress', {
        ...this.names,
        height,
        tip,
        blocksPerSecond: Math.round(blocksPerSecond),
        txPerSecond: Math.round(txPerSecond),
        etaSeconds: Number.isFinite(eta) ? Math.round(eta) : null,
      });
    }
    return Number.isFinite(eta) ? Math.round(eta) : null;
  }

  /** Ends the bar and logs the summary (nothing when no block was added). */
  finish(height: number | null): void {
    if (this.shown && this.sink) this.sink.write('\n');
    this.shown = false;
    if (this.blocks === 0) return;
    const seconds = this.elapsedSeconds();
    this.logger.info('sync finished', {
      ...this.names,
      height,
      blocks: this.blocks,
      txs: this.txs,
      seconds: round2(seconds),
      txPerSecond: Math.round(this.txs / seconds),
      waitingSeconds: round2(this.waitingMs / 1000),
      writingSeconds: round2(this.writingMs / 1000),
    });
  }

  private elapsedSeconds(): number {
    return Math.max((this.now() - this.startedAt) / 1000, 1e-3);
  }
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(s % 60).padStart(2, '0')}s`;
}
