/**
 * Gives a SQLite file's free pages back to the file system a chunk at a time (the file keeps auto_vacuum =
 * INCREMENTAL, sqlite-store.ts). An initial load drops its staging tables at the end and a chain reset drops a
 * whole index: at 20M txs that is ~1.7M free pages (6.5 GiB), and a single `PRAGMA incremental_vacuum` moved them
 * all in one transaction for more than 15 minutes (docs/benchmarks.md, Scale) while the network's queries waited
 * for it. Here each chunk is its own short transaction, spaced so that it takes at most a fifth of the time, while
 * the service answers; nothing is given back while a bulk load appends (its worker writes the same file), and free
 * pages left at a stop are given back after the next start.
 */
import type Database from 'better-sqlite3';

export class PageReturner {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly chunkPages = 2048,
    private readonly minIntervalMs = 100,
  ) {}

  /** Starts giving pages back if the file has free ones (no-op when already running). */
  start(): void {
    if (this.timer || this.freePages() === 0) return;
    if (Number(this.db.pragma('auto_vacuum', { simple: true })) !== 2) return;
    this.schedule(this.minIntervalMs);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * At a clean stop: gives back what is left when that is little (at most `maxPages`, a fraction of a second), so a
   * small index stopped right after its build leaves no staging pages in the file; a large remainder waits for the
   * next start rather than holding the stop.
   */
  finish(maxPages = 16_384): void {
    this.stop();
    const free = this.freePages();
    if (free === 0 || free > maxPages || this.db.inTransaction) return;
    if (this.db.prepare('SELECT 1 FROM bulk_loads LIMIT 1').get()) return;
    if (Number(this.db.pragma('auto_vacuum', { simple: true })) !== 2) return;
    try {
      this.db.pragma('incremental_vacuum');
    } catch {
      // busy: the next start gives them back
    }
  }

  freePages(): number {
    return Number(this.db.pragma('freelist_count', { simple: true }));
  }

  /** One chunk; returns false when there is nothing left to give back (or the file cannot give pages back). */
  step(): boolean {
    if (this.db.inTransaction) return true;
    if (this.db.prepare('SELECT 1 FROM bulk_loads LIMIT 1').get()) return true;
    const before = this.freePages();
    if (before === 0) return false;
    try {
      this.db.pragma(`incremental_vacuum(${this.chunkPages})`);
    } catch {
      return true; // busy (another connection writes): the next chunk tries again
    }
    return this.freePages() < before;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      const started = performance.now();
      const more = this.step();
      if (!more) {
        this.timer = null;
        return;
      }
      this.schedule(Math.max(this.minIntervalMs, 4 * (performance.now() - started)));
    }, delayMs);
    this.timer.unref();
  }
}
