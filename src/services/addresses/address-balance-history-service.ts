import type { Sats } from '../../core/domain/money.js';
import { resolveAddress } from './address-resolution.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';

/** The confirmed balance after one block that touched the address. */
export interface BalancePoint {
  readonly height: number;
  /** The block's time. */
  readonly time: number;
  readonly balance: Sats;
  /** Net change of the address's txs in that block. */
  readonly change: Sats;
}

export interface BalanceHistory {
  /** Oldest first. */
  readonly points: readonly BalancePoint[];
  /** The address's confirmed txs the points are made of. */
  readonly txsRead: number;
  /** True when the address has more confirmed txs than were read: the points cover its newest `txsRead` only. */
  readonly capped: boolean;
}

/** Confirmed txs read for the chart: the newest this many (one history read, however long the address's history). */
export const BALANCE_HISTORY_TXS = 250;
/** Answers kept (by address and tip): a popular address's chart is read once per block, not per view. */
const CACHED_ADDRESSES = 1_000;

/**
 * An address's confirmed balance over time (the explorer's balance chart): the balance after each block that touched
 * it, from its newest confirmed txs. A history within the cap is summed from zero, oldest first, as the CSV export's
 * balance_after; a longer one is walked back from the confirmed balance, so the newest points are exact without
 * reading the rest.
 */
export class AddressBalanceHistoryService {
  /** Insertion-ordered: the oldest entry goes first when full. Confirmed history changes only with the tip. */
  private readonly cache = new Map<string, { tip: string; value: BalanceHistory }>();

  constructor(private readonly networks: NetworkRegistry) {}

  async lastChanges(network: string, address: string, maxTxs = BALANCE_HISTORY_TXS): Promise<BalanceHistory> {
    const ctx = this.networks.resolve(network);
    const { address: canonical, script } = resolveAddress(ctx, address);
    if (!script) return { points: [], txsRead: 0, capped: false };
    const key = `${ctx.id}:${canonical}:${maxTxs}`;
    const tip = (await ctx.reader.getTip())?.hash ?? '';
    const hit = this.cache.get(key);
    if (hit?.tip === tip) return hit.value;
    const value = await this.read(ctx, script, maxTxs);
    this.cache.delete(key);
    this.cache.set(key, { tip, value });
    if (this.cache.size > CACHED_ADDRESSES) this.cache.delete(this.cache.keys().next().value!);
    return value;
  }

  private async read(ctx: NetworkContext, script: Uint8Array, maxTxs: number): Promise<BalanceHistory> {
    const [entries, totals] = await Promise.all([
      ctx.reader.getAddressHistory(script, { direction: 'desc', limit: maxTxs + 1, includeMempool: false }),
      ctx.reader.getAddressTotals(script),
    ]);
    const capped = entries.length > maxTxs;
    const newestFirst = capped ? entries.slice(0, maxTxs) : entries;
    // Uncapped: the sum of the txs read, so the points agree with each other whatever arrived between the two reads.
    let balance = capped ? totals.confirmedBalance : newestFirst.reduce((sum, e) => sum + e.received - e.sent, 0n);
    const points: BalancePoint[] = [];
    for (let i = 0; i < newestFirst.length; ) {
      const height = newestFirst[i]!.height!;
      const time = newestFirst[i]!.time;
      let change = 0n;
      for (; i < newestFirst.length && newestFirst[i]!.height === height; i++) change += newestFirst[i]!.received - newestFirst[i]!.sent;
      points.push({ height, time, balance, change });
      balance -= change;
    }
    return { points: points.reverse(), txsRead: newestFirst.length, capped };
  }
}
