/**
 * The mempool page's graphics, drawn on the server as inline SVG (no chart library, no script, no inline style:
 * colours come from the stylesheet's classes, so both themes apply). Each shape carries a <title> with its figures,
 * and a table with the same numbers follows for screen readers and copying.
 */
import type { FeeHistogramBand } from '../../../../services/network/fee-histogram.js';
import type { ProjectedBlock } from '../../../../services/network/projection/mempool-projection.js';
import type { NetworkContext } from '../../../../services/shared/network-registry.js';
import { html, type SafeHtml } from '../../../shell/html.js';
import { count, feeRate, table, txCount } from '../../format.js';

const TILE = 100;
const SQUARE = 80;

/** How full a projected block is, in percent of the network's maximum block weight. */
export function fullness(block: ProjectedBlock, maxBlockWeight: number): number {
  return Math.min(100, (block.weight / maxBlockWeight) * 100);
}

export function blockName(block: ProjectedBlock): string {
  return block.blockNum === 1 ? 'Next block' : `Block +${block.blockNum}`;
}

/** The projected blocks as squares filled to their weight, with the median fee rate and the tx count. */
export function projectedBlocksChart(network: NetworkContext, blocks: readonly ProjectedBlock[]): SafeHtml {
  const coin = network.params.coin;
  const max = network.params.maxBlockWeight;
  // Room for the six projected blocks even when fewer hold txs: a lone block stays a tile, not the whole width.
  const width = Math.max(6, blocks.length) * TILE;
  return html`<figure class="chart proj-chart">
<svg viewBox="0 0 ${width} 130" role="img" aria-labelledby="proj-chart-title" focusable="false">
<title id="proj-chart-title">The next ${blocks.length === 1 ? 'block' : `${blocks.length} blocks`} projected from the mempool, each filled to its weight</title>
${blocks.map((b, i) => {
  const x = i * TILE + (TILE - SQUARE) / 2;
  const full = fullness(b, max);
  const h = b.numTxs > 0 ? Math.max(1, (full / 100) * SQUARE) : 0;
  return html`<g class="proj-block" data-block="${b.blockNum}"><title>${blockName(b)}: ${txCount(b.numTxs)}, median ${feeRate(b.medianFeeRate, coin)}, ${feeRate(b.minFeeRate, coin)} – ${feeRate(b.maxFeeRate, coin)}, ${full.toFixed(1)} % full</title>
<rect class="frame" x="${x}" y="4" width="${SQUARE}" height="${SQUARE}" rx="4"/>
<rect class="bar" x="${x}" y="${(4 + SQUARE - h).toFixed(1)}" width="${SQUARE}" height="${h.toFixed(1)}" rx="4"/>
<text class="label" x="${x + SQUARE / 2}" y="104" text-anchor="middle">${b.blockNum === 1 ? 'Next' : `+${b.blockNum}`} · ${b.medianFeeRate.toFixed(2)}</text>
<text class="tick" x="${x + SQUARE / 2}" y="122" text-anchor="middle">${txCount(b.numTxs)}</text></g>`;
})}
</svg>
<figcaption>Median fee rate in ${feeRate(0, coin).split(' ')[1]} under each block; the fill is its weight against the largest block allowed.</figcaption>
</figure>`;
}

const ROW = 22;
const LABEL_W = 90;
const CHART_W = 600;

function bandLabel(band: FeeHistogramBand): string {
  return band.to === null ? `${band.from}+` : `${band.from}–${band.to}`;
}

/** Which txs a histogram shows: names its figure, title and table. */
export interface HistogramOf {
  /** Element id prefix (unique on the page). */
  readonly id: string;
  /** "Unconfirmed vbytes", "vbytes of this block". */
  readonly what: string;
  /** The table's name, "Mempool by fee rate". */
  readonly table: string;
  /** Said instead of a chart when there are no txs. */
  readonly empty: string;
}

export const MEMPOOL_HISTOGRAM: HistogramOf = { id: 'fee-histogram', what: 'Unconfirmed vbytes', table: 'Mempool by fee rate', empty: 'The mempool is empty.' };

/** vbytes per fee-rate band, highest rates on top; the table below has the same figures. */
export function feeHistogramChart(network: NetworkContext, bands: readonly FeeHistogramBand[], of: HistogramOf = MEMPOOL_HISTOGRAM): SafeHtml {
  if (bands.length === 0) return html`<p class="muted">${of.empty}</p>`;
  const unit = feeRate(0, network.params.coin).split(' ')[1]!;
  const rows = [...bands].reverse();
  const max = Math.max(...rows.map((b) => b.vsize), 1);
  const height = rows.length * ROW + 8;
  const barW = CHART_W - LABEL_W - 150;
  return html`<figure class="chart fee-histogram" id="${of.id}">
<svg viewBox="0 0 ${CHART_W} ${height}" role="img" aria-labelledby="${of.id}-title" focusable="false">
<title id="${of.id}-title">${of.what} by fee rate (${unit})</title>
${rows.map((b, i) => {
  const y = 4 + i * ROW;
  const w = Math.max(1, (b.vsize / max) * barW);
  return html`<g data-band="${bandLabel(b)}"><title>${bandLabel(b)} ${unit}: ${txCount(b.txs)}, ${count(b.vsize)} vB</title>
<text class="tick" x="${LABEL_W - 6}" y="${y + 15}" text-anchor="end">${bandLabel(b)}</text>
<rect class="bar" x="${LABEL_W}" y="${y + 3}" width="${w.toFixed(1)}" height="${ROW - 6}" rx="2"/>
<text class="tick" x="${(LABEL_W + w + 6).toFixed(1)}" y="${y + 15}">${count(b.vsize)} vB · ${txCount(b.txs)}</text></g>`;
})}
</svg>
<figcaption>Fee rate bands in ${unit} (each tx at its own rate), by their virtual bytes.</figcaption>
</figure>
<details><summary>As a table</summary>
${table(of.table, html`<tr><th scope="col">Fee rate (${unit})</th><th scope="col" class="num">Txs</th><th scope="col" class="num">vbytes</th></tr>`,
  rows.map((b) => html`<tr data-band="${bandLabel(b)}"><td>${bandLabel(b)}</td><td class="num">${count(b.txs)}</td><td class="num">${count(b.vsize)}</td></tr>`))}
</details>`;
}
