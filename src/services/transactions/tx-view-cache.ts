/**
 * Views of confirmed txs without spenders, valid while the tip they were made at is the tip (tx-service.ts). A
 * client chooses which txs are viewed, so the cache is bounded twice: at most 10,000 views, and at most 32 MiB of
 * the viewed txs' serialized size (a view holds the raw bytes and their parse, about 3 times the raw size; the
 * mean view is 5.6 KiB, docs/benchmarks.md). Without the second bound, 10,000 of the chain's largest txs would
 * hold gigabytes. The oldest view goes first (a Map keeps insertion order). Tested in tx-view-cache.test.ts.
 */
export const TX_VIEWS_MAX = 10_000;
export const TX_VIEW_BYTES_MAX = 32 * 1024 * 1024;

interface Cached<V> {
  readonly tipHash: string;
  readonly view: V;
  readonly bytes: number;
}

export class TxViewCache<V> {
  private readonly views = new Map<string, Cached<V>>();
  private total = 0;

  constructor(
    private readonly maxViews = TX_VIEWS_MAX,
    private readonly maxBytes = TX_VIEW_BYTES_MAX,
  ) {}

  get(key: string): { readonly tipHash: string; readonly view: V } | undefined {
    return this.views.get(key);
  }

  /** `bytes`: the tx's serialized size. */
  set(key: string, tipHash: string, view: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    while (this.views.size >= this.maxViews || this.total + bytes > this.maxBytes) this.delete(this.views.keys().next().value!);
    this.views.set(key, { tipHash, view, bytes });
    this.total += bytes;
  }

  delete(key: string): void {
    const old = this.views.get(key);
    if (!old) return;
    this.views.delete(key);
    this.total -= old.bytes;
  }

  /** Views and their bytes held now (tests check the bounds). */
  get size(): { views: number; bytes: number } {
    return { views: this.views.size, bytes: this.total };
  }
}
