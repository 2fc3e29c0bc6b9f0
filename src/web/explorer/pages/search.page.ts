import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_SUGGESTIONS } from '../../../services/search/search-service.js';
import { hitLabel, hitPath, searchSuggestions } from '../parts/search-hits.js';
import { html } from '../../shell/html.js';
import type { ExplorerDeps } from '../explorer-deps.js';
import { link } from '../format.js';

type Query = { q?: string; part?: string };

/**
 * `/search?q=`: one hit goes straight to its page (303); several (an address valid on two networks, a height
 * on every network) are offered as a choice. Nothing exact: the txids and block hashes the text is a prefix of
 * (the suggestions, so a visitor without JavaScript finds them too), one of them at once; none is a friendly 404 page
 * with the search box. `?part=suggest` answers the search box's suggestions (parts/search-suggestions.ts).
 */
export async function searchPage(deps: ExplorerDeps, request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply): Promise<FastifyReply> {
  const q = typeof request.query.q === 'string' ? request.query.q : '';
  if (request.query.part === 'suggest') return deps.shell.fragment(request, reply, searchSuggestions(await deps.services.search.suggest(q)));
  if (q.trim() === '') {
    return deps.shell.errorPage(request, reply, 200, 'Search', "Type an address, a short form, a transaction id, a block hash, a block height, or a wallet's extended public key or descriptor.");
  }
  const exact = await deps.services.search.find(q);
  const prefixed = exact.length === 0;
  const hits = prefixed ? await deps.services.search.suggest(q) : exact;
  if (hits.length === 1) return reply.redirect(hitPath(hits[0]!), 303);
  if (hits.length === 0) {
    return deps.shell.errorPage(request, reply, 404, 'Nothing found', html`Nothing on ${deps.services.networks.ids().length > 1 ? 'the networks served here' : 'this network'} matches “${q.trim().slice(0, 200)}”. Check it and search again:`, q);
  }
  const body = html`<h1>Search results</h1>
<p>${prefixed ? html`Nothing matches “${q.trim()}” exactly; these start with it${hits.length === MAX_SUGGESTIONS ? html` (the first ${String(MAX_SUGGESTIONS)}: type more to narrow them down)` : ''}:` : html`“${q.trim()}” matches ${String(hits.length)} things:`}</p>
<ul>${hits.map((hit) => html`<li>${link(hitPath(hit), hitLabel(hit))}</li>`)}</ul>`;
  return deps.shell.page(request, reply, { title: 'Search results', body, search: q });
}
