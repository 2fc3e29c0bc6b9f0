import type { Sats } from '../../core/domain/money.js';
import type { AddressHistoryEntry, HistoryOptions } from '../../core/store/chain-reads.js';
import type { ChainTip } from '../../core/domain/chain-types.js';
import { resolveAddress } from './address-resolution.js';
import { confirmationsAt } from '../shared/confirmations.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';

/**
 * Where a page of an address's history starts, newest first. Cursors name a confirmed tx, so a page read by
 * cursor is the same whatever happened since (new txs only add pages in front) and costs the same at any depth:
 * the store seeks its (script, height, position) key instead of counting rows. `skip` counts from the newest and
 * is used only past a first page that ends inside the mempool (mempool txs cannot be cursors).
 */
export type TimelineCursor =
  | { readonly kind: 'newest' }
  /** The `count` newest txs (a page that ends just before a mempool tx of another page). */
  | { readonly kind: 'top'; readonly count: number }
  | { readonly kind: 'older'; readonly txid: string }
  | { readonly kind: 'newer'; readonly txid: string }
  | { readonly kind: 'skip'; readonly count: number }
  | { readonly kind: 'oldest' };

export interface TimelineEntry {
  readonly txid: string;
  /** null when unconfirmed. */
  readonly height: number | null;
  readonly confirmations: number;
  /** Block time when confirmed, first seen when not. */
  readonly time: number;
  readonly received: Sats;
  readonly sent: Sats;
}

export interface TimelinePage {
  readonly network: NetworkContext;
  readonly address: string;
  /** Newest first. */
  readonly entries: readonly TimelineEntry[];
  /** The page after this one (older txs), null at the oldest. */
  readonly older: TimelineCursor | null;
  /** The page before this one (newer txs), null at the newest. */
  readonly newer: TimelineCursor | null;
}

/** Entries of one pass over the whole history for exports, oldest first. */
export interface TimelineChunk {
  readonly network: NetworkContext;
  readonly address: string;
  readonly entries: readonly TimelineEntry[];
}

/** Largest explorer page; larger requests are cut to it. */
export const MAX_TIMELINE_PAGE = 100;
const EXPORT_CHUNK = 1_000;

/** An address's whole history for the explorer: pages with stable cursors and a streaming pass for CSV exports. */
export class AddressTimelineService {
  constructor(private readonly networks: NetworkRegistry) {}

  async page(network: string, address: string, cursor: TimelineCursor, size: number): Promise<TimelinePage> {
    const { ctx, canonical, script } = this.resolve(network, address);
    const limit = Math.max(1, Math.min(MAX_TIMELINE_PAGE, cursor.kind === 'top' ? cursor.count : size));
    if (!script) return { network: ctx, address: canonical, entries: [], older: null, newer: null };
    const read = (options: HistoryOptions): Promise<AddressHistoryEntry[]> => ctx.reader.getAddressHistory(script, options);
    const [tip, found] = await Promise.all([ctx.reader.getTip(), this.read(read, cursor, limit + 1)]);
    const more = found.length > limit;
    // Reads run away from the cursor; the extra row only says whether there is more in that direction.
    const kept = more ? found.slice(0, limit) : found;
    const ascending = cursor.kind === 'newer' || cursor.kind === 'oldest';
    const entries = (ascending ? kept.reverse() : kept).map((e) => entryOf(tip, e));
    const first = entries[0];
    const last = entries[entries.length - 1];
    // Mempool txs cannot be cursors: around them, pages are counted from the newest tx.
    const newerThan = (count: number): TimelineCursor | null =>
      count <= 0 ? null : count > size ? { kind: 'skip', count: count - size } : count === size ? { kind: 'newest' } : { kind: 'top', count };
    let older: TimelineCursor | null = null;
    let newer: TimelineCursor | null = null;
    if (!ascending) {
      const skipped = cursor.kind === 'skip' ? cursor.count : 0;
      if (more && last) older = last.height === null ? { kind: 'skip', count: skipped + entries.length } : { kind: 'older', txid: last.txid };
      newer = cursor.kind === 'older' ? (first ? { kind: 'newer', txid: first.txid } : null) : newerThan(skipped);
    } else {
      const mempoolShown = entries.filter((e) => e.height === null).length;
      const unconfirmed = mempoolShown > 0 ? (await ctx.reader.getAddressTotals(script)).unconfirmedTxCount : 0;
      if (cursor.kind === 'newer' && last) older = last.height === null ? { kind: 'skip', count: unconfirmed } : { kind: 'older', txid: last.txid };
      if (more && first) newer = first.height === null ? newerThan(unconfirmed - mempoolShown) : { kind: 'newer', txid: first.txid };
    }
    return { network: ctx, address: canonical, entries, older, newer };
  }

  /** Every tx of the address, oldest first (confirmed in chain order, then the mempool), in chunks: constant memory. */
  async *oldestFirst(network: string, address: string, chunk = EXPORT_CHUNK): AsyncGenerator<TimelineChunk> {
    const { ctx, canonical, script } = this.resolve(network, address);
    if (!script) return;
    let after: string | undefined;
    for (;;) {
      const [tip, found] = await Promise.all([
        ctx.reader.getTip(),
        ctx.reader.getAddressHistory(script, { direction: 'asc', limit: chunk, includeMempool: false, ...(after ? { afterTxid: after } : {}) }),
      ]);
      if (found.length > 0) yield { network: ctx, address: canonical, entries: found.map((e) => entryOf(tip, e)) };
      if (found.length < chunk) break;
      after = found[found.length - 1]!.txid;
    }
    const totals = await ctx.reader.getAddressTotals(script);
    if (totals.unconfirmedTxCount === 0) return;
    // Newest first starts with the mempool txs: exactly unconfirmedTxCount of them.
    const newest = await ctx.reader.getAddressHistory(script, { direction: 'desc', limit: totals.unconfirmedTxCount });
    const mempool = newest.filter((e) => e.height === null).reverse();
    if (mempool.length > 0) yield { network: ctx, address: canonical, entries: mempool.map((e) => entryOf(null, e)) };
  }

  /** In reading order: newest first, except `newer` and `oldest`, which read oldest first. */
  private read(read: (o: HistoryOptions) => Promise<AddressHistoryEntry[]>, cursor: TimelineCursor, limit: number): Promise<AddressHistoryEntry[]> {
    switch (cursor.kind) {
      case 'newest':
      case 'top':
        return read({ direction: 'desc', limit });
      case 'skip':
        return read({ direction: 'desc', limit, offset: cursor.count });
      case 'older':
        return read({ direction: 'desc', limit, afterTxid: cursor.txid });
      case 'newer':
        return read({ direction: 'asc', limit, afterTxid: cursor.txid });
      case 'oldest':
        return read({ direction: 'asc', limit });
    }
  }

  private resolve(network: string, address: string): { ctx: NetworkContext; canonical: string; script: Uint8Array | null } {
    const ctx = this.networks.resolve(network);
    const resolved = resolveAddress(ctx, address);
    return { ctx, canonical: resolved.address, script: resolved.script };
  }
}

function entryOf(tip: ChainTip | null, e: AddressHistoryEntry): TimelineEntry {
  return { txid: e.txid, height: e.height, confirmations: confirmationsAt(tip, e.height), time: e.time, received: e.received, sent: e.sent };
}
