import type { CoinId } from '../../core/domain/network.js';

/** What get_info says about a coin without asking a node: symbol (HTML entity) and project site. */
export const COIN_FACTS: Readonly<Record<CoinId, { readonly symbolHtml: string; readonly url: string }>> = {
  BTC: { symbolHtml: '&#3647;', url: 'https://bitcoin.org/' },
  LTC: { symbolHtml: '&#321;', url: 'https://litecoin.org/' },
  DOGE: { symbolHtml: '&#272;', url: 'https://dogecoin.com/' },
};
