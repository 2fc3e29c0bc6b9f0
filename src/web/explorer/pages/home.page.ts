import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../../shell/html.js';
import { apiLinks } from '../api-links.js';
import { configuredNetworks, type ExplorerDeps } from '../explorer-deps.js';
import { cachedNetworkCard, overviewOf } from '../parts/network-card.js';

/** `/`: every configured network side by side, each card live on its own network's blocks. */
export async function homePage(deps: ExplorerDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const networks = configuredNetworks(deps);
  const overviews = await Promise.all(networks.map((n) => overviewOf(deps, n)));
  const now = deps.now();
  const body = html`<h1>Blocks, transactions and addresses</h1>
${networks.length === 0 ? html`<p>No network is configured. Add a <code>[networks.X]</code> table to the configuration (see the README).</p>` : ''}
<div class="grid">${overviews.map((o) => cachedNetworkCard(deps.cards, o, now))}</div>
${apiLinks(
  deps.publicUrl,
  networks.flatMap((n) => [
    { label: `v2 get_info ${n.id}`, path: `/api/v2/get_info/${n.id}` },
    { label: `v3 latest_blocks_summary ${n.id}`, path: `/api/v3/latest_blocks_summary/${n.id}`, needsKey: true },
    { label: `v3 network_info ${n.id}`, path: `/api/v3/network_info/${n.id}`, needsKey: true },
  ]),
)}`;
  return deps.shell.page(request, reply, { title: '', body, live: true });
}
