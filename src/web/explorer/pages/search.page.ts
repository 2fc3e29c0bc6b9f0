import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SearchHit } from '../../../services/search/search-service.js';
import { html } from '../../shell/html.js';
import type { ExplorerDeps } from '../explorer-deps.js';
import { count, hash, link } from '../format.js';
import { addressPath, blockPath, txPath, walletPath } from '../paths.js';

function hitPath(hit: SearchHit): string {
  switch (hit.kind) {
    case 'address':
    case 'short':
      return addressPath(hit.network.id, hit.address);
    case 'tx':
      return txPath(hit.network.id, hit.txid);
    case 'block':
      return blockPath(hit.network.id, hit.hash);
    case 'wallet':
      return walletPath(hit.network.id, hit.wallet);
  }
}

function hitLabel(hit: SearchHit) {
  const on = hit.network.params.name;
  switch (hit.kind) {
    case 'address':
      return html`Address ${hash(hit.address)} on ${on}`;
    case 'short':
      return html`Short form ${hit.short}: address ${hash(hit.address)} on ${on}`;
    case 'tx':
      return html`Transaction ${hash(hit.txid)} on ${on}`;
    case 'block':
      return html`Block ${count(hit.height)}${hit.isOrphan ? ' (orphaned)' : ''} on ${on}`;
    case 'wallet':
      return html`Wallet ${hash(hit.wallet)} on ${on}`;
  }
}

/**
 * `/search?q=`: one hit goes straight to its page (303); several (an address valid on two networks, a height
 * on every network) are offered as a choice; none is a friendly 404 page with the search box.
 */
export async function searchPage(deps: ExplorerDeps, request: FastifyRequest<{ Querystring: { q?: string } }>, reply: FastifyReply): Promise<FastifyReply> {
  const q = typeof request.query.q === 'string' ? request.query.q : '';
  if (q.trim() === '') {
    return deps.shell.errorPage(request, reply, 200, 'Search', "Type an address, a short form, a transaction id, a block hash, a block height, or a wallet's extended public key or descriptor.");
  }
  const hits = await deps.services.search.find(q);
  if (hits.length === 1) return reply.redirect(hitPath(hits[0]!), 303);
  if (hits.length === 0) {
    return deps.shell.errorPage(request, reply, 404, 'Nothing found', html`Nothing on ${deps.services.networks.ids().length > 1 ? 'the networks served here' : 'this network'} matches “${q.trim().slice(0, 200)}”. Check it and search again:`, q);
  }
  const body = html`<h1>Search results</h1>
<p>“${q.trim()}” matches ${String(hits.length)} things:</p>
<ul>${hits.map((hit) => html`<li>${link(hitPath(hit), hitLabel(hit))}</li>`)}</ul>`;
  return deps.shell.page(request, reply, { title: 'Search results', body, search: q });
}
