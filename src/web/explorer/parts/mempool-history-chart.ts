/** The mempool page's 24-hour chart: tx count and vbytes from the indexer's samples (services/network/mempool-history-service.ts). */
import type { MempoolHistory } from '../../../services/network/mempool-history-service.js';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import { html, type SafeHtml } from '../../shell/html.js';
import { amount, ago, count, plural, table } from '../format.js';
import { chartFigures, lineChart } from './line-chart.js';

export function mempoolHistoryChart(network: NetworkContext, history: MempoolHistory, now: number): SafeHtml {
  const { points } = history;
  if (points.length === 0) {
    return html`<p class="muted" id="mempool-history">No samples in the last 24 hours yet: the indexer records the mempool's size every minute (<code>mempool_sample_seconds</code>).</p>`;
  }
  const coin = network.params.coin;
  const newest = points[points.length - 1]!;
  const thinned = points.length < history.sampleCount;
  const maxTxs = Math.max(...points.map((p) => p.txCount));
  const maxVbytes = Math.max(...points.map((p) => p.vbytes));
  const rows = [...points].reverse().map((p) => html`<tr data-time="${String(p.time)}"><td>${ago(p.time, now)}</td><td class="num">${count(p.txCount)}</td><td class="num">${count(p.bytes)} B</td><td class="num">${count(p.vbytes)} vB</td><td class="num">${amount(p.fees, coin)}</td></tr>`);
  return html`<figure class="chart history-chart" id="mempool-history">
${lineChart({
  id: 'mempool-history',
  title: `Mempool transactions (top) and virtual size (bottom) over the last 24 hours, ${plural(points.length, 'sample')}`,
  times: points.map((p) => p.time),
  from: history.from,
  to: history.to,
  panels: [
    { label: `Transactions, up to ${count(maxTxs)}`, values: points.map((p) => p.txCount), kind: 'line-a' },
    { label: `Virtual size, up to ${count(maxVbytes)} vB`, values: points.map((p) => p.vbytes), kind: 'line-b' },
  ],
})}
<figcaption>Last sample ${ago(newest.time, now)}: ${count(newest.txCount)} txs, ${count(newest.vbytes)} vB.${thinned ? ` ${count(points.length)} of ${count(history.sampleCount)} samples drawn (one in ${count(Math.ceil(history.sampleCount / points.length))}).` : ''}</figcaption>
${chartFigures(`The ${plural(points.length, 'sample')} drawn`, table('Mempool samples, newest first', html`<tr><th scope="col">Sampled</th><th scope="col" class="num">Txs</th><th scope="col" class="num">Size</th><th scope="col" class="num">Virtual size</th><th scope="col" class="num">Fees</th></tr>`, rows))}
</figure>`;
}
