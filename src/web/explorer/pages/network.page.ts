import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import { parseHeight } from '../../../services/blocks/block-service.js';
import { html, withQuery, type SafeHtml } from '../../shell/html.js';
import { apiLinks } from '../api-links.js';
import type { ExplorerDeps } from '../explorer-deps.js';
import { blocksChart } from '../parts/charts/blocks-chart.js';
import { blocksTable } from '../parts/blocks-table.js';
import { cachedNetworkCard, overviewOf } from '../parts/network-card.js';
import { syncBanner } from '../parts/sync-banner.js';
import { pager } from '../pager.js';
import { mempoolPath, networkPath } from '../paths.js';
import { blockchainChannel } from '../../../services/events/catalogue/event-channels.js';

export const PAGE_BLOCKS = 20;

type Query = { from?: string; part?: string };

/** `/{net}`: the network's card, then its blocks newest first, 20 a page (`?from=HEIGHT` pages are stable URLs). */
export async function networkPage(deps: ExplorerDeps, network: NetworkContext, request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply): Promise<FastifyReply> {
  const now = deps.now();
  const overview = await overviewOf(deps, network);
  const part = request.query.part;
  if (part === 'card' || part === 'summary') return deps.shell.fragment(request, reply, cachedNetworkCard(deps.cards, overview, now, part === 'card'));
  if (overview.kind === 'syncing') {
    const body = html`<h1>${network.params.name}</h1>${syncBanner(overview.sync)}`;
    return deps.shell.page(request, reply, { title: network.params.name, body, live: true });
  }
  const tip = overview.status.tip.height;
  const from = parseHeight(request.query.from ?? '');
  const top = from === null || from >= tip ? tip : from;
  const { blocks } = await deps.chain.blocksDown(network.id, top, PAGE_BLOCKS);
  const lowest = blocks[blocks.length - 1]?.block.height ?? 0;
  const latestPage = top === tip;
  const base = networkPath(network.id);
  const content = html`<h2>Blocks ${String(top)} to ${String(lowest)}</h2>${blocksChart(network, blocks)}${blocksTable(network, blocks, now)}`;
  const section: SafeHtml = latestPage
    ? html`<div id="blocks" data-live-on="${blockchainChannel(network.id)}:block_update" data-live-src="${base}?part=blocks">${content}</div>`
    : html`<div id="blocks">${content}</div>`;
  if (part === 'blocks') return deps.shell.fragment(request, reply, section);
  const nav = pager('Block pages', [
    { label: 'Newest', href: latestPage ? null : base },
    { label: 'Newer', href: latestPage ? null : top + PAGE_BLOCKS >= tip ? base : withQuery(base, { from: top + PAGE_BLOCKS }), rel: 'prev' },
    { label: 'Older', href: lowest > 0 ? withQuery(base, { from: lowest - 1 }) : null, rel: 'next' },
  ]);
  const body = html`<h1>${network.params.name}</h1>
${cachedNetworkCard(deps.cards, overview, now, false)}
${section}
${nav}
<p><a href="${mempoolPath(network.id)}">Mempool and projected blocks</a></p>
${apiLinks(deps.publicUrl, [
  { label: `v2 get_info ${network.id}`, path: `/api/v2/get_info/${network.id}` },
  { label: `v3 latest_blocks_summary ${network.id}`, path: `/api/v3/latest_blocks_summary/${network.id}`, needsKey: true },
  { label: `v2 block ${top}`, path: `/api/v2/block/${network.id}/${top}` },
])}`;
  return deps.shell.page(request, reply, { title: network.params.name, body, live: true });
}
