import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import { html } from '../../shell/html.js';
import { apiLinks } from '../api-links.js';
import type { ExplorerDeps } from '../explorer-deps.js';
import { ago, amount, bytes, count, feeRate, hash, link, table, when } from '../format.js';
import { feeAdvice, feeEstimatesOf } from '../parts/fee-advice.js';
import { feeHistogramChart, projectedBlocksChart } from '../parts/charts/mempool-charts.js';
import { mempoolHistoryChart } from '../parts/charts/mempool-history-chart.js';
import { PROJECTION_SETTLE_MS } from '../parts/network-card.js';
import { syncBanner } from '../parts/sync-banner.js';
import { mempoolPath, txPath } from '../paths.js';
import { blockchainChannel } from '../../../services/events/catalogue/event-channels.js';
import { syncStateOf } from '../sync-state.js';

/** A busy mempool changes many times a second: the live region refreshes at most this often. */
const REFRESH_MIN_MS = 5_000;

type Query = { part?: string; samples?: string };

/** `/{net}/mempool`: the projected next blocks and the newest unconfirmed txs (live at most every 5 s), the last 24 hours (`?samples=1`: every drawn sample listed). */
export async function mempoolPage(deps: ExplorerDeps, network: NetworkContext, request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply): Promise<FastifyReply> {
  const title = `${network.params.name} mempool`;
  const sync = await syncStateOf(deps, network);
  if (sync.kind === 'syncing') return deps.shell.page(request, reply, { title, body: html`<h1>${title}</h1>${syncBanner(sync)}` });
  // One snapshot per render: the count, the projection and the list all come from the projector's last snapshot.
  const [status, fees, history] = await Promise.all([
    deps.chain.status(network.id), feeEstimatesOf(deps, network),
    request.query.part === 'mempool' ? null : deps.services.network.history.lastDay(network.id),
  ]);
  const projection = status.mempool;
  const blocks = projection.blocks.filter((b) => b.numTxs > 0);
  const now = deps.now();
  const coin = network.params.coin;
  const channel = blockchainChannel(network.id);
  const region = html`<div id="mempool" data-live-on="${channel}:tx_update ${channel}:block_update" data-live-src="${mempoolPath(network.id)}?part=mempool" data-live-min-ms="${String(REFRESH_MIN_MS)}" data-live-delay-ms="${String(PROJECTION_SETTLE_MS)}">
<dl class="kv">
<dt>Unconfirmed txs</dt><dd>${count(projection.txCount)}</dd>
<dt>Size</dt><dd>${bytes(projection.bytes)}</dd>
<dt>Projection from</dt><dd>${when(projection.updatedAt, now)}</dd>
</dl>
<h2>Fee rates now</h2>
${feeAdvice(network, fees)}
<h2>Projected next blocks</h2>
${blocks.length === 0 ? html`<p class="muted">The mempool is empty.</p>` : html`${projectedBlocksChart(network, blocks)}${table('Projected next blocks', html`<tr><th scope="col">Block</th><th scope="col" class="num">Txs</th><th scope="col" class="num">Size</th><th scope="col" class="num">Weight</th><th scope="col" class="num">Lowest fee rate</th><th scope="col" class="num">Median</th><th scope="col" class="num">Highest</th><th scope="col" class="num">Needed to enter</th></tr>`,
  blocks.map((b) => html`<tr><td>${b.blockNum === 1 ? 'Next' : `+${b.blockNum}`}</td><td class="num">${count(b.numTxs)}</td><td class="num">${bytes(b.size)}</td><td class="num">${count(b.weight)}</td><td class="num">${feeRate(b.minFeeRate, coin)}</td><td class="num">${feeRate(b.medianFeeRate, coin)}</td><td class="num">${feeRate(b.maxFeeRate, coin)}</td><td class="num">${feeRate(b.minFeeRatePossible, coin)}</td></tr>`))}`}
<h2>Fee rates in the mempool</h2>
${feeHistogramChart(network, projection.feeHistogram)}
<h2>Newest unconfirmed transactions</h2>
${projection.newest.length === 0 ? html`<p class="muted">None.</p>` : table('Newest unconfirmed transactions', html`<tr><th scope="col">Transaction</th><th scope="col">Seen</th><th scope="col" class="num">Size</th><th scope="col" class="num">Fee</th><th scope="col" class="num">Fee rate</th></tr>`,
  projection.newest.map((t) => html`<tr data-key="${t.txid}"><td>${link(txPath(network.id, t.txid), hash(t.txid))}</td><td>${ago(t.seenAt, now)}</td><td class="num">${count(t.vsize)} vB</td><td class="num">${amount(t.fee, coin)}</td><td class="num">${feeRate(t.vsize > 0 ? Number(t.fee) / t.vsize : 0, coin)}</td></tr>`))}
</div>`;
  if (request.query.part === 'mempool') return deps.shell.fragment(request, reply, region);
  const body = html`<h1>${title}</h1>
${region}
<h2>The last 24 hours</h2>
${history ? mempoolHistoryChart(network, history, now, request.query.samples === '1') : ''}
${apiLinks(deps.publicUrl, [
  { label: `v3 network_info ${network.id}`, path: `/api/v3/network_info/${network.id}`, needsKey: true },
  { label: `v3 fee_estimates ${network.id}`, path: `/api/v3/fee_estimates/${network.id}`, needsKey: true },
  { label: `v2 get_info ${network.id}`, path: `/api/v2/get_info/${network.id}` },
])}`;
  return deps.shell.page(request, reply, { title, body, live: true });
}
