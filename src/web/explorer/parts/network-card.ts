import { formatPrice, type PriceQuote } from '../../../core/domain/prices.js';
import type { FeeEstimates } from '../../../services/fees/fee-service.js';
import type { BlockSummary, NetworkStatus } from '../../../services/network/chain-summary-service.js';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import { html, type SafeHtml } from '../../shell/html.js';
import type { ExplorerDeps } from '../explorer-deps.js';
import { badge, bytes, count, link, when } from '../format.js';
import { blockPath, mempoolPath, networkPath } from '../paths.js';
import { blockchainChannel } from '../../../services/events/catalogue/event-channels.js';
import { syncStateOf, type SyncState } from '../sync-state.js';
import { blocksTable } from './blocks-table.js';
import { feeAdvice, feeEstimatesOf, feeKey } from './fee-advice.js';
import { projectedBlocks } from './projected-blocks.js';
import { syncBanner } from './sync-banner.js';

/** Latest blocks on a network's card (the network page lists more). */
const CARD_BLOCKS = 5;
export const PRICE_CURRENCY = 'USD';
/** The mempool projection is recomputed 500 ms after the events that change it: refresh after that. */
export const PROJECTION_SETTLE_MS = 700;

export type Overview =
  | { readonly kind: 'syncing'; readonly network: NetworkContext; readonly sync: Extract<SyncState, { kind: 'syncing' }> }
  | {
      readonly kind: 'ready';
      readonly network: NetworkContext;
      readonly latest: readonly BlockSummary[];
      readonly status: NetworkStatus;
      readonly price: PriceQuote | null;
      /** The fee service's rates (v3 fee_estimates), null when unavailable. */
      readonly fees: FeeEstimates | null;
    };

export async function overviewOf(deps: ExplorerDeps, network: NetworkContext): Promise<Overview> {
  const sync = await syncStateOf(deps, network);
  if (sync.kind === 'syncing') return { kind: 'syncing', network, sync };
  const [latest, status, price, fees] = await Promise.all([
    deps.chain.latestBlocks(network.id, sync.tip),
    deps.chain.status(network.id, sync.tip),
    network.params.chain === 'main' ? deps.services.prices.newest(network.params.coin, PRICE_CURRENCY) : Promise.resolve(null),
    feeEstimatesOf(deps, network),
  ]);
  return { kind: 'ready', network, latest: latest.blocks.slice(0, CARD_BLOCKS), status, price, fees };
}

/** Relative times on a cached card are at most this old (the client script rewrites them every 15 s as well). */
const CARD_TIME_STEP_S = 15;

/**
 * The card, rendered once per state: the same tip, mempool projection, price and 15-second step give the same
 * markup, so `/` (every network's card, on every visit and every live refresh) renders each card rarely.
 */
export function cachedNetworkCard(cache: Map<string, { key: string; html: SafeHtml }>, overview: Overview, now: number, withBlocks = true): SafeHtml {
  if (overview.kind === 'syncing') return networkCard(overview, now, withBlocks);
  const { status, price, fees } = overview;
  const slot = `${overview.network.id}:${withBlocks}`;
  const key = [status.tip.hash, status.mempool.updatedAt, status.mempool.txCount, status.mempool.bytes, price?.time, price?.price, feeKey(fees), Math.floor(now / CARD_TIME_STEP_S)].join('|');
  const hit = cache.get(slot);
  if (hit?.key === key) return hit.html;
  const html = networkCard(overview, now, withBlocks);
  cache.set(slot, { key, html });
  return html;
}

export function cardId(network: NetworkContext): string {
  return `net-${network.id.toLowerCase()}`;
}

/**
 * One network at a glance: tip, mempool, price, latest blocks (not on the network page, which lists them),
 * projected blocks. Live: re-rendered on each block (`?part=card` or `?part=summary`).
 */
export function networkCard(overview: Overview, now: number, withBlocks = true): SafeHtml {
  const { network } = overview;
  const id = cardId(network);
  const channel = blockchainChannel(network.id);
  const src = `${networkPath(network.id)}?part=${withBlocks ? 'card' : 'summary'}`;
  const title = html`<h2><a href="${networkPath(network.id)}">${network.params.name}</a> ${badge(network.id, 'neutral')}</h2>`;
  if (overview.kind === 'syncing') {
    return html`<section class="card" id="${id}" aria-label="${network.params.name}" data-live-on="${channel}:block_update" data-live-src="${src}">
${title}${syncBanner(overview.sync)}</section>`;
  }
  const { status, latest, price, fees } = overview;
  const tipBlock = latest[0]?.block;
  return html`<section class="card" id="${id}" aria-label="${network.params.name}" data-live-on="${channel}:block_update" data-live-src="${src}" data-live-delay-ms="${String(PROJECTION_SETTLE_MS)}">
${title}
<dl class="kv">
<dt>Height</dt><dd>${link(blockPath(network.id, status.tip.hash), count(status.tip.height))}</dd>
${tipBlock ? html`<dt>Last block</dt><dd>${when(tipBlock.time, now)}</dd>` : ''}
<dt>Unconfirmed txs</dt><dd><a href="${mempoolPath(network.id)}"><span data-live-field="${channel}:tx_update:unconfirmed_txs">${count(status.mempool.txCount)}</span></a> · ${bytes(status.mempool.bytes)}</dd>
${network.params.chain === 'main' ? html`<dt>Price</dt><dd>${price ? html`<span class="amount">${formatPrice(price.price)}</span> ${price.base} <span class="muted">(${price.exchange})</span>` : html`<span class="muted">not known yet</span>`}</dd>` : ''}
</dl>
${withBlocks ? html`<h3>Latest blocks</h3>
${blocksTable(network, latest, now)}` : ''}
<h3>Fee rates now</h3>
${feeAdvice(network, fees)}
<h3>Next blocks (projected from the mempool)</h3>
${projectedBlocks(network, status.mempool)}
</section>`;
}
