import { encode } from 'uqr';
import type { CoinId } from '../../../core/network.js';
import { html, type SafeHtml } from '../../shell/html.js';

/** BIP21 and the same scheme for the other coins' wallets. */
const URI_SCHEME: Readonly<Record<CoinId, string>> = { BTC: 'bitcoin', LTC: 'litecoin', DOGE: 'dogecoin' };

export function paymentUri(coin: CoinId, address: string): string {
  return `${URI_SCHEME[coin]}:${address}`;
}

/**
 * A QR code as inline SVG drawn on the server: one path of unit squares in currentColor (no style attribute,
 * nothing fetched, works without JavaScript). Medium error correction, a 2-module quiet zone.
 */
export function qrCode(text: string, label: string): SafeHtml {
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  let d = '';
  for (let y = 0; y < size; y++) {
    const row = data[y]!;
    for (let x = 0; x < size; x++) if (row[x]) d += `M${x} ${y}h1v1h-1z`;
  }
  return html`<svg class="qr" viewBox="0 0 ${String(size)} ${String(size)}" role="img" aria-label="${label}" shape-rendering="crispEdges"><path fill="currentColor" d="${d}"/></svg>`;
}
