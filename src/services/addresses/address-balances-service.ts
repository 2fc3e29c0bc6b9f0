import { isValidAddress } from '../../chains/addressing.js';
import type { Sats } from '../../core/domain/money.js';
import type { AddressTotals } from '../../core/store/chain-reads.js';
import { resolveAddress } from './address-resolution.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';

export interface AddressBalance {
  readonly network: NetworkContext;
  readonly address: string;
  /** Net value of the txs with at least max(1, minConfirmations) confirmations. */
  readonly confirmed: Sats;
  /** Everything else: mempool txs and confirmed txs below the threshold (so confirmed + unconfirmed = the whole balance). */
  readonly unconfirmed: Sats;
}

export interface AddressFlows {
  readonly network: NetworkContext;
  readonly address: string;
  readonly totals: AddressTotals;
}

const ZERO_TOTALS: AddressTotals = Object.freeze({
  confirmedReceived: 0n,
  confirmedSent: 0n,
  confirmedBalance: 0n,
  txCount: 0,
  receivedTxCount: 0,
  sentTxCount: 0,
  unconfirmedReceived: 0n,
  unconfirmedSent: 0n,
  unconfirmedBalance: 0n,
  unconfirmedTxCount: 0,
});

/** Balances and totals of one address. */
export class AddressBalancesService {
  constructor(private readonly networks: NetworkRegistry) {}

  isValid(network: string, address: string): { network: NetworkContext; valid: boolean } {
    const ctx = this.networks.resolve(network);
    return { network: ctx, valid: isValidAddress(ctx.params, address) };
  }

  /**
   * minConfirmations 0 and 1 give the same split (confirmed vs mempool); N > 1 moves confirmed txs
   * with fewer than N confirmations into `unconfirmed`, so the sum stays the address's balance.
   */
  async balance(network: string, address: string, minConfirmations: number): Promise<AddressBalance> {
    const { network: ctx, address: canonical, totals } = await this.totals(network, address, { txCounts: false });
    if (minConfirmations <= 1) {
      return { network: ctx, address: canonical, confirmed: totals.confirmedBalance, unconfirmed: totals.unconfirmedBalance };
    }
    const deep = await this.totalsFor(ctx, canonical, minConfirmations);
    const shallow = totals.confirmedBalance - deep.confirmedBalance;
    return { network: ctx, address: canonical, confirmed: deep.confirmedBalance, unconfirmed: shallow + totals.unconfirmedBalance };
  }

  /**
   * Confirmed (≥ 1 confirmation) and mempool totals. `txCounts` false: for answers that show only values (v2
   * balance, received, spent), the mempool's txs are not counted (unconfirmedTxCount NaN; AddressTotalsOptions).
   */
  async totals(network: string, address: string, { txCounts = true }: { readonly txCounts?: boolean } = {}): Promise<AddressFlows> {
    const ctx = this.networks.resolve(network);
    const resolved = resolveAddress(ctx, address);
    return { network: ctx, address: resolved.address, totals: await this.totalsOf(ctx, resolved.script, 1, txCounts) };
  }

  private async totalsFor(ctx: NetworkContext, address: string, minConfirmations: number): Promise<AddressTotals> {
    return this.totalsOf(ctx, resolveAddress(ctx, address).script, minConfirmations, false);
  }

  private async totalsOf(ctx: NetworkContext, script: Uint8Array | null, minConfirmations: number, mempoolTxCount = true): Promise<AddressTotals> {
    if (script === null) return ZERO_TOTALS;
    return ctx.reader.getAddressTotals(script, { minConfirmations, mempoolTxCount });
  }
}
