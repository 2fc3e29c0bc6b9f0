import type { CoinId } from '../core/domain/network.js';
import type { PriceSourceId } from '../core/domain/prices.js';
import type { NetworkParams } from './network-params.js';

/**
 * Everything that makes one coin differ from another beyond its networks' consensus and address rules: data, not code
 * paths. One per coin, in its params file (chains/coins/), with that coin's networks; chains/networks.ts lists them.
 */
export interface CoinParams {
  /** The coin's acronym (a main network's acronym at the API; also its price symbol). */
  readonly id: CoinId;
  /** The node software serving it (what a misconfigured node is told to be). */
  readonly nodeSoftware: string;
  /** Its currency symbol as an HTML entity (v2 get_info). */
  readonly symbolHtml: string;
  /** The project's site (v2 get_info). */
  readonly site: string;
  /** The smallest unit, as amounts in base units and fee rates name it ("sat" in "sat/vB"). */
  readonly baseUnit: string;
  /** The payment URI scheme its wallets open (BIP21's `bitcoin:` and the same form for the others). */
  readonly uriScheme: string;
  /** Its main network's coin has a market value: prices are polled and served for it (test networks' coins never). */
  readonly priced: boolean;
  /** The coin's name at an exchange where it is not `id` (Kraken's XBT for BTC). */
  readonly exchangeNames: Readonly<Partial<Record<PriceSourceId, string>>>;
  readonly networks: { readonly main: NetworkParams; readonly test: NetworkParams; readonly regtest: NetworkParams };
}
