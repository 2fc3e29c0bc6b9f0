/**
 * A QR code as inline SVG drawn on the server (one path of unit squares in currentColor; the shared `.qr` class
 * gives it black on white in both themes), here for the second factor's otpauth:// URI. The explorer's
 * payment-URI QR (web/explorer/parts/qr-code.ts, built in parallel) draws the same way: one of the two can go.
 */
import { encode } from 'uqr';
import { html, type SafeHtml } from '../shell/html.js';

export function qrCode(text: string, label: string): SafeHtml {
  const { data, size } = encode(text, { ecc: 'M', border: 2 });
  let d = '';
  for (let y = 0; y < size; y++) {
    const row = data[y]!;
    for (let x = 0; x < size; x++) if (row[x]) d += `M${x} ${y}h1v1h-1z`;
  }
  return html`<svg class="qr" viewBox="0 0 ${String(size)} ${String(size)}" role="img" aria-label="${label}" shape-rendering="crispEdges"><path fill="currentColor" d="${d}"/></svg>`;
}
