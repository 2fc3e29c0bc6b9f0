import type { CoinId } from '../../../core/domain/network.js';
import { coinParams } from '../../../chains/networks.js';

/** BIP21 and the same scheme for the other coins' wallets (each coin's `uriScheme`). */
export function paymentUri(coin: CoinId, address: string): string {
  return `${coinParams(coin).uriScheme}:${address}`;
}
