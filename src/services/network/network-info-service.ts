import { getNetworkParams } from '../../chains/addressing.js';
import { coinOf, DEFAULT_COIN } from '../../chains/networks.js';
import { difficultyFromBits } from '../../chains/parsing.js';
import { isNetworkId, type NetworkId } from '../../core/domain/network.js';
import type { PriceQuote } from '../../core/domain/prices.js';
import type { SyncStatus } from '../../core/domain/sync-status.js';
import { estimateHashrate } from './hashrate.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';
import type { PriceService } from '../prices/price-service.js';

/** get_info's price currency. */
export const INFO_PRICE_BASE = 'USD';

export interface NetworkInfo {
  /** The acronym answered for (the default DOGE when omitted). */
  readonly acronym: string;
  readonly name: string;
  readonly symbolHtml: string;
  readonly url: string;
  /** False when this server does not index the network: the chain figures are then zero. */
  readonly configured: boolean;
  readonly difficulty: number;
  readonly unconfirmedTxs: number;
  readonly blocks: number;
  readonly price: PriceQuote | null;
  readonly priceBase: string;
  readonly hashrate: bigint;
  /**
   * Null when the network answers chain queries; else its initial-sync status, and then `blocks` is the index height
   * and the other chain figures (difficulty, unconfirmed txs, hash rate) are zero: they need the index.
   */
  readonly syncing: SyncStatus | null;
}

const ACRONYM = /^[A-Za-z0-9]{1,16}$/;

/** Network summary (get_info). Never fails for a network name: what is not indexed here is reported as zeros. */
export class NetworkInfoService {
  /** Hash rate per network, recomputed only when the tip moves (it reads ~120 blocks). */
  private readonly hashrates = new Map<NetworkId, { tip: string; value: bigint }>();

  constructor(
    private readonly networks: NetworkRegistry,
    private readonly prices: PriceService,
  ) {}

  async info(network: string | undefined): Promise<NetworkInfo> {
    const acronym = network !== undefined && ACRONYM.test(network) ? network.toUpperCase() : DEFAULT_COIN;
    const ctx = this.networks.find(acronym);
    if (ctx) return this.configured(ctx);
    if (!isNetworkId(acronym)) {
      return { acronym, name: acronym, symbolHtml: '', url: '', configured: false, difficulty: 0, unconfirmedTxs: 0, blocks: 0, price: null, priceBase: INFO_PRICE_BASE, hashrate: 0n, syncing: null };
    }
    const params = getNetworkParams(acronym);
    const facts = coinOf(params);
    const price = params.chain === 'main' ? await this.prices.newest(params.coin, INFO_PRICE_BASE) : null;
    return { acronym, name: params.name, symbolHtml: facts.symbolHtml, url: facts.site, configured: false, difficulty: 0, unconfirmedTxs: 0, blocks: 0, price, priceBase: INFO_PRICE_BASE, hashrate: 0n, syncing: null };
  }

  private async configured(ctx: NetworkContext): Promise<NetworkInfo> {
    const { params, reader } = ctx;
    const facts = coinOf(params);
    // The gate's snapshot: when it says ready, the chain reads below and every chain query of this process pass.
    const [syncing, price] = await Promise.all([
      this.networks.syncing(ctx.id),
      params.chain === 'main' ? this.prices.newest(params.coin, INFO_PRICE_BASE) : Promise.resolve(null),
    ]);
    if (syncing) {
      const base = { acronym: ctx.id, name: params.name, symbolHtml: facts.symbolHtml, url: facts.site, configured: true, priceBase: INFO_PRICE_BASE };
      return { ...base, difficulty: 0, unconfirmedTxs: 0, blocks: syncing.height ?? 0, price, hashrate: 0n, syncing };
    }
    const [tip, mempool] = await Promise.all([reader.getTip(), reader.getMempoolInfo()]);
    // The tip's row alone (its bits): a block's thousands of txids are no part of get_info.
    const [block] = tip ? await reader.getBlockHeaders(tip.height, tip.height) : [];
    let hashrate = 0n;
    if (tip) {
      const cached = this.hashrates.get(ctx.id);
      hashrate = cached?.tip === tip.hash ? cached.value : await estimateHashrate(reader, tip);
      this.hashrates.set(ctx.id, { tip: tip.hash, value: hashrate });
    }
    return {
      acronym: ctx.id,
      name: params.name,
      symbolHtml: facts.symbolHtml,
      url: facts.site,
      configured: true,
      difficulty: block ? difficultyFromBits(block.bits) : 0,
      unconfirmedTxs: mempool.count,
      blocks: tip?.height ?? 0,
      price,
      priceBase: INFO_PRICE_BASE,
      hashrate,
      syncing: null,
    };
  }
}
