/**
 * The fees and tx counts of a page of blocks as two bar rows (server-drawn SVG, colours from the stylesheet), oldest
 * on the left; each bar's <title> carries its block's figures, and the blocks table beside it lists them all.
 */
import { formatCoins } from '../../../../core/domain/money.js';
import type { BlockSummary } from '../../../../services/network/chain-summary-service.js';
import type { NetworkContext } from '../../../../services/shared/network-registry.js';
import { html, type SafeHtml } from '../../../shell/html.js';
import { count, txCount } from '../../format.js';

const WIDTH = 600;
const PANEL = 70;
const LEFT = 4;

export function blocksChart(network: NetworkContext, newestFirst: readonly BlockSummary[]): SafeHtml {
  const blocks = [...newestFirst].reverse();
  if (blocks.length === 0) return html``;
  const coin = network.params.coin;
  const slot = (WIDTH - LEFT * 2) / blocks.length;
  const maxTxs = Math.max(1, ...blocks.map((b) => b.block.txCount));
  const maxFees = blocks.reduce((m, b) => (b.block.fees > m ? b.block.fees : m), 1n);
  const panel = (top: number, share: (b: BlockSummary) => number, kind: string): SafeHtml[] => blocks.map((b, i) => {
    const h = Math.max(1, share(b) * PANEL);
    const x = LEFT + i * slot + slot * 0.15;
    return html`<rect class="bar ${kind}" x="${x.toFixed(1)}" y="${(top + PANEL - h).toFixed(1)}" width="${(slot * 0.7).toFixed(1)}" height="${h.toFixed(1)}"/>`;
  });
  const height = PANEL * 2 + 44;
  return html`<figure class="chart blocks-chart">
<svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="blocks-chart-title" focusable="false">
<title id="blocks-chart-title">Transactions (top) and fees (bottom) of blocks ${String(blocks[0]!.block.height)} to ${String(blocks[blocks.length - 1]!.block.height)}</title>
<text class="tick" x="${LEFT}" y="12">Transactions, up to ${count(maxTxs)}</text>
${panel(16, (b) => b.block.txCount / maxTxs, 'txs')}
<text class="tick" x="${LEFT}" y="${PANEL + 32}">Fees, up to ${formatCoins(maxFees)} ${coin}</text>
${panel(PANEL + 36, (b) => Number(b.block.fees) / Number(maxFees), 'fees')}
${blocks.map((b, i) => html`<g data-height="${String(b.block.height)}"><title>Block ${String(b.block.height)}: ${txCount(b.block.txCount)}, fees ${formatCoins(b.block.fees)} ${coin}</title><rect class="hit" x="${(LEFT + i * slot).toFixed(1)}" y="0" width="${slot.toFixed(1)}" height="${height}"/></g>`)}
</svg>
<figcaption>Oldest on the left; the table below has each block's figures.</figcaption>
</figure>`;
}
