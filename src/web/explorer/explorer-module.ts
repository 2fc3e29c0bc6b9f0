import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NetworkContext } from '../../services/shared/network-registry.js';
import type { WebContext, WebModule } from '../register-web.js';
import { configuredNetworks, type ExplorerDeps } from './explorer-deps.js';
import { addressCsv } from './pages/address-csv.js';
import { addressPage } from './pages/address.page.js';
import { blockPage } from './pages/block.page.js';
import { homePage } from './pages/home.page.js';
import { mempoolPage } from './pages/mempool.page.js';
import { networkPage } from './pages/network.page.js';
import { searchPage } from './pages/search.page.js';
import { txPage } from './pages/tx.page.js';
import { walletPage } from './pages/wallet.page.js';
import { addressPath, netSlug, networkPath } from './paths.js';

type Query = Record<string, string | undefined>;

function explorerDeps({ shell, options, services, now }: WebContext): ExplorerDeps {
  return { services, chain: services.network.chain, projector: services.network.projector, shell, publicUrl: options.publicUrl.replace(/\/+$/, ''), now, cards: new Map() };
}

/** The live regions a page answers as `?part=NAME` (web/shell/page-rate-limit.ts: any other part is a 404). */
function parts(...names: string[]): { config: { liveParts: readonly string[] } } {
  return { config: { liveParts: names } };
}

function networkRoutes(app: FastifyInstance, deps: ExplorerDeps, network: NetworkContext): void {
  const base = networkPath(network.id);
  app.get<{ Querystring: Query }>(base, parts('card', 'summary', 'blocks'), (request, reply) => networkPage(deps, network, request, reply));
  app.get<{ Params: { id: string }; Querystring: Query }>(`${base}/block/:id`, parts('confirmations', 'next'), (request, reply) => blockPage(deps, network, request.params.id, request, reply));
  app.get<{ Params: { txid: string }; Querystring: Query }>(`${base}/tx/:txid`, parts('status'), (request, reply) => txPage(deps, network, request.params.txid, request, reply));
  app.get<{ Params: { address: string }; Querystring: Query }>(`${base}/address/:address`, parts('summary', 'history'), (request, reply) => addressPage(deps, network, request.params.address, request, reply));
  app.get<{ Params: { address: string } }>(`${base}/address/:address/history.csv`, (request, reply) => addressCsv(deps, network, request.params.address, request, reply));
  // The address page's "Make a short link" button: the one explorer POST (no session, nothing secret: no CSRF token).
  app.post<{ Params: { address: string } }>(`${base}/address/:address/short`, async (request, reply) => {
    const made = await deps.services.addresses.shorts.resolve(network.id, request.params.address);
    return reply.redirect(`${addressPath(made.network.id, made.address)}#share-title`, 303);
  });
  app.get<{ Querystring: Query }>(`${base}/mempool`, parts('mempool'), (request, reply) => mempoolPage(deps, network, request, reply));
  app.get<{ Params: { wallet: string }; Querystring: Query }>(`${base}/xpub/:wallet`, parts('summary', 'transactions'), (request, reply) => walletPage(deps, network, request.params.wallet, request, reply));
  // /LTC/... as typed from an API acronym: the same page under its lower-case URL.
  const upper = `/${network.id}`;
  const toLower = (request: FastifyRequest, reply: FastifyReply): FastifyReply => reply.redirect(`/${netSlug(network.id)}${request.url.slice(upper.length)}`, 301);
  app.get(upper, toLower);
  app.get(`${upper}/*`, toLower);
}

/**
 * The explorer: `/`, `/search`, `/s/{NETWORK}/{short}` and, per configured network, `/{net}`, its blocks, txs,
 * addresses (with CSV export) and mempool. Routes exist only for configured networks, so any other path falls
 * through to the HTML 404.
 */
export const explorerModule: WebModule = (app, context) => {
  const deps = explorerDeps(context);
  const networks = configuredNetworks(deps);
  context.shell.setNav((request) =>
    networks.map((n) => {
      const href = networkPath(n.id);
      return { href, label: n.params.name, current: request.url === href || request.url.startsWith(`${href}/`) || request.url.startsWith(`${href}?`) };
    }),
  );
  app.get('/', (request, reply) => homePage(deps, request, reply));
  app.get<{ Querystring: { q?: string; part?: string } }>('/search', parts('suggest'), (request, reply) => searchPage(deps, request, reply));
  app.get<{ Params: { network: string; short: string } }>('/s/:network/:short', async (request, reply) => {
    const found = await deps.services.addresses.shorts.resolve(request.params.network.toUpperCase(), request.params.short);
    return reply.redirect(addressPath(found.network.id, found.address), 302);
  });
  for (const network of networks) networkRoutes(app, deps, network);
};
