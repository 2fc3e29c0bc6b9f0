import type { Sats } from '../../core/domain/money.js';
import type { AddressTotals, TxRecord } from '../../core/store/chain-reads.js';
import { rawTxsOf } from '../transactions/raw-tx-reader.js';
import { AddressBalancesService } from './address-balances-service.js';
import { resolveAddress } from './address-resolution.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';
import { describeScript } from '../transactions/script-description.js';

/** v3 pages hold up to 10 items; page 1 is the first. */
export const V3_PAGE_SIZE = 10;

/** What one transaction did to the address. */
export interface AddressTxItem {
  readonly txid: string;
  readonly sent: Sats;
  readonly received: Sats;
  readonly time: number;
  /** null when unconfirmed. */
  readonly height: number | null;
}

export interface UnspentItem {
  readonly txid: string;
  readonly vout: number;
  readonly value: Sats;
  readonly script: Uint8Array;
  readonly address: string | null;
  readonly height: number | null;
  /** The funding transaction. */
  readonly txRaw: Uint8Array;
}

export interface AddressPage<T> {
  readonly network: NetworkContext;
  readonly address: string;
  readonly page: number;
  readonly items: readonly T[];
}

/** Transaction counts including the mempool: confirmed counts from the index totals, mempool ones split by direction. */
export interface AddressCounts {
  readonly network: NetworkContext;
  readonly address: string;
  readonly totals: AddressTotals;
  readonly sent: number;
  readonly received: number;
  readonly total: number;
}

/** v3 address reads: numbered pages (newest transactions first, oldest unspent outputs first) and counts. */
export class AddressPagesService {
  private readonly addresses: AddressBalancesService;

  constructor(private readonly networks: NetworkRegistry) {
    this.addresses = new AddressBalancesService(networks);
  }

  /** A page past the end is an empty list, not an error. */
  async transactions(network: string, address: string, page: number): Promise<AddressPage<AddressTxItem>> {
    const { ctx, canonical, script } = this.resolve(network, address);
    if (!script) return { network: ctx, address: canonical, page, items: [] };
    const entries = await ctx.reader.getAddressHistory(script, { limit: V3_PAGE_SIZE, offset: (page - 1) * V3_PAGE_SIZE, direction: 'desc' });
    const items = entries.map((e) => ({ txid: e.txid, sent: e.sent, received: e.received, time: e.time, height: e.height }));
    return { network: ctx, address: canonical, page, items };
  }

  /** Oldest first (block order, then the mempool); outputs already spent by a mempool tx are left out. */
  async unspentOutputs(network: string, address: string, page: number): Promise<AddressPage<UnspentItem>> {
    const { ctx, canonical, script } = this.resolve(network, address);
    if (!script) return { network: ctx, address: canonical, page, items: [] };
    const outputs = await ctx.reader.getUnspent(script, { limit: V3_PAGE_SIZE, offset: (page - 1) * V3_PAGE_SIZE, includeMempool: true });
    const txids = [...new Set(outputs.map((o) => o.txid))];
    const records = (await Promise.all(txids.map((t) => ctx.reader.getTransaction(t)))).filter((r): r is TxRecord => r !== null);
    // One request to the node for the page's txs the store does not keep (raw_txs = "node").
    const raws = await rawTxsOf(ctx, records);
    const raw = new Map(records.map((r, i) => [r.txid, raws[i]!] as const));
    const items = outputs.map((o) => ({
      txid: o.txid,
      vout: o.vout,
      value: o.value,
      script: o.script,
      address: describeScript(ctx.params, o.script).address,
      height: o.height,
      txRaw: raw.get(o.txid) ?? new Uint8Array(0),
    }));
    return { network: ctx, address: canonical, page, items };
  }

  async counts(network: string, address: string): Promise<AddressCounts> {
    const { network: ctx, address: canonical, totals } = await this.addresses.totals(network, address);
    let mempoolSent = 0;
    let mempoolReceived = 0;
    const { script } = resolveAddress(ctx, address);
    if (script && totals.unconfirmedTxCount > 0) {
      // Newest first starts with the mempool txs: exactly unconfirmedTxCount of them.
      const mempool = await ctx.reader.getAddressHistory(script, { limit: totals.unconfirmedTxCount, direction: 'desc' });
      for (const e of mempool) {
        if (e.height !== null) continue;
        if (e.spending.length > 0) mempoolSent++;
        if (e.funding.length > 0) mempoolReceived++;
      }
    }
    return {
      network: ctx,
      address: canonical,
      totals,
      sent: totals.sentTxCount + mempoolSent,
      received: totals.receivedTxCount + mempoolReceived,
      total: totals.txCount + totals.unconfirmedTxCount,
    };
  }

  private resolve(network: string, address: string): { ctx: NetworkContext; canonical: string; script: Uint8Array | null } {
    const ctx = this.networks.resolve(network);
    const resolved = resolveAddress(ctx, address);
    return { ctx, canonical: resolved.address, script: resolved.script };
  }
}
