import type { Logger } from '../core/index.js';

export interface ProgressSink {
  /** A TTY shows a live bar; anything else gets a log line every `logEveryMs`. */
  readonly isTTY: boolean;
  write(text: string): void;
}

/** Initial-sync progress: height/tip, blocks/s, tx/s and ETA. */
export class SyncProgress {
  private readonly startedAt = Date.now();
  private lastLogAt = 0;
  private blocks = 0;
  private txs = 0;
  private shown = false;

  constructor(
    private readonly label: string,
    private readonly logger: Logger,
    private readonly sink: ProgressSink | null,
    private readonly logEveryMs = 10_000,
  ) {}

  update(height: number, tip: number, blocksAdded: number, txsAdded: number): void {
    this.blocks += blocksAdded;
    this.txs += txsAdded;
    const seconds = Math.max((Date.now() - this.startedAt) / 1000, 1e-3);
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
      return;
    }
    const now = Date.now();
    if (now - this.lastLogAt >= this.logEveryMs || remaining === 0) {
      this.lastLogAt = now;
      this.logger.info('sync progress', {
        network: this.label,
        height,
        tip,
        blocksPerSecond: Math.round(blocksPerSecond),
        txPerSecond: Math.round(txPerSecond),
        etaSeconds: Number.isFinite(eta) ? Math.round(eta) : null,
      });
    }
  }

  finish(): void {
    if (this.shown && this.sink) this.sink.write('\n');
    this.shown = false;
  }
}

function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}m${String(s % 60).padStart(2, '0')}s`;
}
