import type { CoinId } from '../../../core/domain/network.js';

/** BIP21 and the same scheme for the other coins' wallets. */
const URI_SCHEME: Readonly<Record<CoinId, string>> = { BTC: 'bitcoin', LTC: 'litecoin', DOGE: 'dogecoin' };

export function paymentUri(coin: CoinId, address: string): string {
  return `${URI_SCHEME[coin]}:${address}`;
}
