/**
 * The store connection's page cache, sized to the index unless `[store] sqlite_cache_mb` fixes it. Following the tip
 * inserts at random places of the chain tables' B-trees; the pages the cache cannot hold are read and parsed again for
 * every block. On the 20M-tx bench index a 1 GiB cache took following from 0.42x to 0.50x of a 100k index's rate, and
 * a small index gains nothing from more than the floor (docs/benchmarks.md, "Following the 20M index"). The bound is
 * filled only as pages are used, but on a big index it fills, so it grows with the file and stops at a share of RAM.
 */
import { totalmem } from 'node:os';
import type Database from 'better-sqlite3';

/** What a small index gets: the bulk load and the 100k bench index were tuned with it. */
export const AUTO_CACHE_MIN_MB = 128;
/** The most the automatic size takes: a bigger cache on a mainnet-sized index is the operator's choice. */
export const AUTO_CACHE_MAX_MB = 1024;
/** One MiB of cache per this many MiB of live index: 1 GiB from a 16 GiB index on (the 20M bench index is ~22 GiB). */
const INDEX_PER_CACHE = 16;
/** Never more than this share of the machine's memory. */
const RAM_SHARE = 8;
/** The file grows while following: looked at again this often (one pragma pair, microseconds). */
const RECHECK_MS = 60_000;

const MIB = 1024 * 1024;

/** The automatic size for an index of `liveBytes` (its pages in use) on a machine with `ramBytes` of memory. */
export function autoCacheMb(liveBytes: number, ramBytes: number): number {
  const ceiling = Math.max(AUTO_CACHE_MIN_MB, Math.min(AUTO_CACHE_MAX_MB, Math.floor(ramBytes / RAM_SHARE / MIB)));
  return Math.min(ceiling, Math.max(AUTO_CACHE_MIN_MB, Math.floor(liveBytes / INDEX_PER_CACHE / MIB)));
}

/** Keeps one connection's `cache_size` at the configured size, or at the automatic one as the file grows. */
export class CacheSizer {
  private timer: NodeJS.Timeout | null = null;
  private appliedMb = 0;

  constructor(
    private readonly db: Database.Database,
    /** `[store] sqlite_cache_mb`; null: automatic. */
    private readonly fixedMb: number | null,
    private readonly ramBytes: number = totalmem(),
  ) {}

  /** The size in force. */
  get mb(): number {
    return this.appliedMb;
  }

  /** Sets the size now, then (automatic only) follows the file's growth. */
  start(): void {
    this.apply();
    if (this.fixedMb !== null || this.timer) return;
    this.timer = setInterval(() => this.apply(), RECHECK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  apply(): void {
    const mb = this.fixedMb ?? autoCacheMb(this.liveBytes(), this.ramBytes);
    if (mb === this.appliedMb) return;
    // Negative: KiB rather than pages, so the bound does not depend on the page size.
    this.db.pragma(`cache_size = -${mb * 1024}`);
    this.appliedMb = mb;
  }

  private liveBytes(): number {
    const pages = Number(this.db.pragma('page_count', { simple: true })) - Number(this.db.pragma('freelist_count', { simple: true }));
    return pages * Number(this.db.pragma('page_size', { simple: true }));
  }
}
