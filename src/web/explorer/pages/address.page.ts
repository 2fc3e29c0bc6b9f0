import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodeAddress } from '../../../chains/addressing.js';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import { html, withQuery, type SafeHtml } from '../../shell/html.js';
import { qrCode } from '../../shell/qr-code.js';
import { apiLinks } from '../api-links.js';
import type { ExplorerDeps } from '../explorer-deps.js';
import { amount, badge, count, hash, link, table } from '../format.js';
import { balanceChart } from '../parts/charts/balance-chart.js';
import { paymentUri } from '../parts/payment-uri.js';
import { addressPath, addressShortPath, outputPath, shortLinkPath } from '../paths.js';
import { addressHistory, addressSummary, cursorFrom } from './address-parts.js';

export const HISTORY_PAGE = 25;
/** Unspent outputs are listed by funding tx, this many txs a page. */
const UNSPENT_PAGE_TXS = 25;
const TXID = /^[0-9a-fA-F]{64}$/;

type Query = Record<string, string | undefined>;

/**
 * `/{net}/address/{address}`: balances, short link (or a button making one, for an address without history) and QR code, the history newest first with stable cursor URLs
 * (any depth costs the same), unspent outputs, a CSV export. Live: balances and the first history page.
 */
export async function addressPage(deps: ExplorerDeps, network: NetworkContext, address: string, request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply): Promise<FastifyReply> {
  const net = network.id;
  const part = request.query['part'];
  const cursor = part === 'history' ? ({ kind: 'newest' } as const) : cursorFrom(request.query);
  const now = deps.now();
  if (part === 'summary') {
    const flows = await deps.services.addresses.balances.totals(net, address);
    return deps.shell.fragment(request, reply, addressSummary(network, flows.address, flows.totals));
  }
  if (part === 'history') return deps.shell.fragment(request, reply, addressHistory(await deps.services.addresses.timeline.page(net, address, cursor, HISTORY_PAGE), cursor, now));
  const utxoAfter = request.query['utxo_after'];
  const [flows, history, found, unspent, balances] = await Promise.all([
    deps.services.addresses.balances.totals(net, address),
    deps.services.addresses.timeline.page(net, address, cursor, HISTORY_PAGE),
    deps.services.addresses.shorts.existing(net, address),
    deps.services.addresses.outputs.unspent(net, address, { minConfirmations: 0, ...(utxoAfter && TXID.test(utxoAfter) ? { afterTxid: utxoAfter.toLowerCase() } : {}) }),
    deps.services.addresses.balanceHistory.lastChanges(net, address),
  ]);
  const canonical = flows.address;
  const coin = network.params.coin;
  // Addresses with history get their short form on first view (as before); any other address only when asked for.
  const used = flows.totals.txCount + flows.totals.unconfirmedTxCount > 0;
  const short = found ?? (used ? (await deps.services.addresses.shorts.resolve(net, canonical)).short : null);
  const uri = paymentUri(coin, canonical);
  const stealth = decodeAddress(network.params, canonical).kind === 'mweb';
  // Whole txs only: the next page starts after a tx, so cutting one in two would skip its other outputs.
  const shownTxs = [...new Set(unspent.items.map((i) => i.txid))].slice(0, UNSPENT_PAGE_TXS);
  const shown = unspent.items.filter((i) => shownTxs.includes(i.txid));
  const lastUnspent = shown[shown.length - 1];
  const moreUnspent = shown.length < unspent.items.length && lastUnspent !== undefined && lastUnspent.confirmations > 0;
  const base = addressPath(net, canonical);
  const unspentRows: SafeHtml[] = shown.map(
    (o) => html`<tr><td>${link(outputPath(net, o.txid, o.vout), html`${hash(o.txid)}:${String(o.vout)}`)}</td>
<td>${o.confirmations === 0 ? badge('Unconfirmed', 'warn') : count(o.confirmations)}</td>
<td class="num">${amount(o.value, coin)}</td></tr>`,
  );
  const body = html`<h1>Address ${badge(network.id, 'neutral')}</h1>
<div class="copy-line"><pre id="address">${canonical}</pre><button type="button" class="secondary" data-copy="address" hidden>Copy</button></div>
${stealth ? html`<p class="banner warn">An MWEB stealth address: payments to it are confidential, so nothing on the chain pays it visibly and its figures stay zero here.</p>` : ''}
<div class="address-head">
<section class="card" aria-labelledby="balance-title"><h2 id="balance-title">Balance</h2>
${addressSummary(network, canonical, flows.totals)}
</section>
<section class="card" aria-labelledby="share-title"><h2 id="share-title">Share</h2>
${qrCode(uri, `QR code of ${uri}`)}
${short !== null
  ? html`<p>Short link: <a href="${shortLinkPath(net, short)}">${deps.publicUrl + shortLinkPath(net, short)}</a></p>`
  : html`<form method="post" action="${addressShortPath(net, canonical)}"><button type="submit" class="secondary">Make a short link</button></form>`}
<p class="muted">Payment URI: <span class="hash">${uri}</span></p>
</section>
</div>
${balanceChart(network, balances, now)}
<h2 id="history">Transactions</h2>
${addressHistory(history, cursor, now)}
<h2 id="unspent">Unspent outputs</h2>
${shown.length === 0 ? html`<p class="muted">None.</p>` : table('Unspent outputs', html`<tr><th scope="col">Output</th><th scope="col">Confirmations</th><th scope="col" class="num">Value</th></tr>`, unspentRows)}
${utxoAfter ? html`<p><a href="${base}#unspent">First unspent outputs</a></p>` : ''}
${moreUnspent ? html`<p><a href="${withQuery(base, { utxo_after: lastUnspent.txid })}#unspent">More unspent outputs</a></p>` : ''}
${apiLinks(deps.publicUrl, [
  { label: 'v2 address (display data)', path: `/api/v2/address/${net}/${canonical}` },
  { label: 'v2 get_address_balance', path: `/api/v2/get_address_balance/${net}/${canonical}` },
  { label: 'v2 get_tx_unspent', path: `/api/v2/get_tx_unspent/${net}/${canonical}` },
  { label: 'v2 short', path: `/api/v2/short/${net}/${canonical}` },
  { label: 'v3 address_summary', path: `/api/v3/address_summary/${net}/${canonical}`, needsKey: true },
  { label: 'v3 transactions (page 1)', path: `/api/v3/transactions/${net}/${canonical}/1`, needsKey: true },
])}`;
  return deps.shell.page(request, reply, { title: `${network.params.name} address ${canonical}`, body, live: true });
}
