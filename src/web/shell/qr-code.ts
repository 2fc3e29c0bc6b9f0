import { encode } from 'uqr';
import { html, type SafeHtml } from './html.js';

/**
 * A QR code as inline SVG drawn on the server: one path of unit squares in currentColor (no style attribute,
 * nothing fetched, works without JavaScript; the `.qr` class gives it black on white in both themes). Medium
 * error correction, a 2-module quiet zone. The explorer's payment URIs and the dashboard's otpauth:// URIs.
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
