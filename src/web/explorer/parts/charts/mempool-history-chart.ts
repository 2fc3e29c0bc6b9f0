/** The mempool page's 24-hour chart: tx count and vbytes from the indexer's samples (services/network/mempool-history-service.ts). */
import type { MempoolSample } from '../../../../core/store/mempool-sample-store.js';
import type { MempoolHistory } from '../../../../services/network/mempool-history-service.js';
import type { NetworkContext } from '../../../../services/shared/network-registry.js';
import { html, withQuery, type SafeHtml } from '../../../shell/html.js';
import { amount, ago, count, plural, table } from '../../format.js';
import { mempoolPath } from '../../paths.js';
import { chartFigures, lineChart } from './line-chart.js';

/**
 * Rendered charts by the history they draw: the service hands every page view of the same 5 s the same history object,
 * so a busy mempool page renders its points and rows once per network and 5 s, not per view (relative times in it are
 * kept current by the page script).
 */
const rendered = new WeakMap<MempoolHistory, { hourly?: SafeHtml; all?: SafeHtml }>();

/**
 * `all`: the table lists every drawn sample (`?samples=1`, up to 288 rows); by default the newest sample and the last
 * of each earlier hour (at most 25 rows): the whole table would be most of the page's bytes.
 */
export function mempoolHistoryChart(network: NetworkContext, history: MempoolHistory, now: number, all: boolean): SafeHtml {
  const cached = rendered.get(history) ?? {};
  rendered.set(history, cached);
  const kind = all ? 'all' : 'hourly';
  return (cached[kind] ??= render(network, history, now, all));
}

/** The newest sample, then the last one of each earlier hour; newest first. */
function hourly(newestFirst: readonly MempoolSample[]): MempoolSample[] {
  const out: MempoolSample[] = [];
  for (const p of newestFirst) if (out.length === 0 || Math.floor(p.time / 3600) !== Math.floor(out[out.length - 1]!.time / 3600)) out.push(p);
  return out;
}

function render(network: NetworkContext, history: MempoolHistory, now: number, all: boolean): SafeHtml {
  const { points } = history;
  if (points.length === 0) {
    return html`<p class="muted" id="mempool-history">No samples in the last 24 hours yet: the indexer records the mempool's size every minute (<code>mempool_sample_seconds</code>).</p>`;
  }
  const coin = network.params.coin;
  const newest = points[points.length - 1]!;
  const thinned = points.length < history.sampleCount;
  const maxTxs = Math.max(...points.map((p) => p.txCount));
  const maxVbytes = Math.max(...points.map((p) => p.vbytes));
  const newestFirst = [...points].reverse();
  const listed = all ? newestFirst : hourly(newestFirst);
  const rows = listed.map((p) => html`<tr data-time="${String(p.time)}"><td>${ago(p.time, now)}</td><td class="num">${count(p.txCount)}</td><td class="num">${count(p.bytes)} B</td><td class="num">${count(p.vbytes)} vB</td><td class="num">${amount(p.fees, coin)}</td></tr>`);
  const other = listed.length < points.length || all
    ? html`<p><a href="${all ? `${mempoolPath(network.id)}#mempool-history` : `${withQuery(mempoolPath(network.id), { samples: 1 })}#mempool-history`}">${all ? 'Hourly samples only' : `All ${count(points.length)} samples drawn`}</a></p>`
    : '';
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
${chartFigures(all ? `The ${plural(points.length, 'sample')} drawn` : `The newest sample and the last of each hour (${String(listed.length)})`, html`${table('Mempool samples, newest first', html`<tr><th scope="col">Sampled</th><th scope="col" class="num">Txs</th><th scope="col" class="num">Size</th><th scope="col" class="num">Virtual size</th><th scope="col" class="num">Fees</th></tr>`, rows)}${other}`, all)}
</figure>`;
}
