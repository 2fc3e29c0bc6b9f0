/** The projection's queue of packages: best fee rate first, ties by txid, stale entries skipped by the caller. */

/**
 * Max-heap on (rate desc, txid asc); stale entries are skipped by the caller through `version`. Ties compare the
 * txids themselves: ranking them first sorted the whole mempool at every pass (a sixth of a pass at 20,000 txs, in
 * one piece that could not pause; docs/benchmarks.md, "Mempool at mainnet rates"), and the order is the same.
 */
export class PackageHeap {
  private rates: number[] = [];
  private txs: number[] = [];
  private versions: number[] = [];

  /** `txids[tx]`: the txid of tx number `tx`. */
  constructor(private readonly txids: readonly string[]) {}

  get size(): number {
    return this.rates.length;
  }

  push(rate: number, tx: number, version: number): void {
    this.rates.push(rate);
    this.txs.push(tx);
    this.versions.push(version);
    let i = this.rates.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  pop(): { rate: number; tx: number; version: number } {
    const top = { rate: this.rates[0]!, tx: this.txs[0]!, version: this.versions[0]! };
    const last = this.rates.length - 1;
    this.swap(0, last);
    this.rates.pop();
    this.txs.pop();
    this.versions.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < this.rates.length && this.before(l, best)) best = l;
      if (r < this.rates.length && this.before(r, best)) best = r;
      if (best === i) break;
      this.swap(i, best);
      i = best;
    }
    return top;
  }

  private before(a: number, b: number): boolean {
    const ra = this.rates[a]!;
    const rb = this.rates[b]!;
    return ra > rb || (ra === rb && this.txids[this.txs[a]!]! < this.txids[this.txs[b]!]!);
  }

  private swap(a: number, b: number): void {
    [this.rates[a], this.rates[b]] = [this.rates[b]!, this.rates[a]!];
    [this.txs[a], this.txs[b]] = [this.txs[b]!, this.txs[a]!];
    [this.versions[a], this.versions[b]] = [this.versions[b]!, this.versions[a]!];
  }
}
