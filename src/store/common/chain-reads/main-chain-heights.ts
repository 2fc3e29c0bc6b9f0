/**
 * The main chain's blocks as (first tx id, height), kept in memory per tip, for reads that list many txs by id (an
 * Electrum history, an unspent list): a tx's height is then a binary search over the ids, where the join through the
 * blocks' first-tx index and their rows cost three B-tree searches per listed tx (most of a history's cost). Each read
 * first reads the tip row; a new tip appends the blocks above what is kept (checked against the hashes of the last
 * kept blocks, so a reorg trims back to where the chains agree), a reorg deeper than that reloads it all. 12 bytes a
 * block: 10 MB for Bitcoin's 850,000.
 */
import type { ChainTables } from '../schema/chain-tables.js';
import { bytesToHex } from '../schema/codec.js';
import type { SqlDialect } from '../sql/sql-dialect.js';
import { first, num, rows, type Plan } from '../sql/sql-plan.js';

/** How many of the last blocks' hashes are kept to find where a reorg's chains agree. */
const KEPT_HASHES = 256;

export class MainChainHeights {
  private firstTx = new Float64Array(1024);
  private heights = new Int32Array(1024);
  private count = 0;
  private tip: string | null = null;
  /** height → hash of the last KEPT_HASHES blocks kept. */
  private readonly recent = new Map<number, string>();
  private readonly sql;

  constructor(t: ChainTables, d: SqlDialect, private readonly net: number) {
    this.sql = {
      tip: 'SELECT hash FROM tips WHERE net = ?',
      from: `SELECT first_tx, height, hash FROM ${t.blocks} WHERE height >= ? AND is_orphan = ${d.no} ORDER BY height`,
    };
  }

  /** Brought to the stored tip (in the caller's snapshot); then heightOf answers for any main-chain tx id. */
  *current(): Plan<MainChainHeights> {
    const row = yield* first(this.sql.tip, [this.net]);
    return yield* this.at(row ? (row.hash as Uint8Array) : null);
  }

  /** As current, with the stored tip's hash read by the caller (in its snapshot; null: no tip). */
  *at(tipHash: Uint8Array | null): Plan<MainChainHeights> {
    const tip = tipHash ? bytesToHex(tipHash) : null;
    if (tip === this.tip) return this;
    let from = 0;
    if (this.count > 0) {
      const lowest = this.heights[Math.max(0, this.count - this.recent.size)]!;
      const now = new Map((yield* rows(this.sql.from, [lowest])).map((r) => [num(r.height), bytesToHex(r.hash as Uint8Array)]));
      let agree = this.count - 1;
      while (agree >= 0 && this.recent.has(this.heights[agree]!) && now.get(this.heights[agree]!) !== this.recent.get(this.heights[agree]!)) agree--;
      if (agree >= 0 && this.recent.has(this.heights[agree]!)) {
        for (let i = agree + 1; i < this.count; i++) this.recent.delete(this.heights[i]!);
        this.count = agree + 1;
        from = this.heights[agree]! + 1;
      } else {
        this.count = 0;
        this.recent.clear();
      }
    }
    for (const r of yield* rows(this.sql.from, [from])) this.push(num(r.first_tx), num(r.height), bytesToHex(r.hash as Uint8Array));
    this.tip = tip;
    return this;
  }

  /** The height of the main-chain block holding tx `id`. */
  heightOf(id: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.firstTx[mid]! <= id) lo = mid;
      else hi = mid - 1;
    }
    return this.heights[lo]!;
  }

  private push(firstTx: number, height: number, hash: string): void {
    if (this.count === this.firstTx.length) {
      const grownIds = new Float64Array(this.count * 2);
      grownIds.set(this.firstTx);
      const grownHeights = new Int32Array(this.count * 2);
      grownHeights.set(this.heights);
      this.firstTx = grownIds;
      this.heights = grownHeights;
    }
    this.firstTx[this.count] = firstTx;
    this.heights[this.count] = height;
    this.count++;
    this.recent.set(height, hash);
    if (this.recent.size > KEPT_HASHES) this.recent.delete(height - KEPT_HASHES);
  }
}
