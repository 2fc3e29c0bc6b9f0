import type { MempoolProjection } from '../../../services/network/mempool-projector.js';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import { html, type SafeHtml } from '../../shell/html.js';
import { bytes, feeRate, txCount } from '../format.js';

/** The projected next blocks as compact tiles: txs, size, fee-rate range and median. */
export function projectedBlocks(network: NetworkContext, projection: MempoolProjection): SafeHtml {
  // Blocks +2…+6 of a small mempool are empty: only blocks with txs are shown.
  const blocks = projection.blocks.filter((b) => b.numTxs > 0);
  if (blocks.length === 0) return html`<p class="muted">The mempool is empty: the next block would hold only its coinbase.</p>`;
  const coin = network.params.coin;
  return html`<ol class="proj" aria-label="Projected next blocks">${blocks.map(
    (b) => html`<li><strong>${b.blockNum === 1 ? 'Next block' : `Block +${b.blockNum}`}</strong>
${txCount(b.numTxs)} · ${bytes(b.size)}<br>
${feeRate(b.minFeeRate, coin)} – ${feeRate(b.maxFeeRate, coin)}<br>
<span class="muted">median ${feeRate(b.medianFeeRate, coin)}</span></li>`,
  )}</ol>`;
}
