import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import type { WalletOverview } from '../../../services/wallets/wallet-service.js';
import { html, withQuery, type SafeHtml } from '../../shell/html.js';
import { apiLinks } from '../api-links.js';
import type { ExplorerDeps } from '../explorer-deps.js';
import { ago, amount, badge, count, hash, link, table } from '../format.js';
import { pager, pageNumber } from '../pager.js';
import { blockchainChannel, walletChannel } from '../../../services/events/catalogue/event-channels.js';
import { blockPath, outputPath, txPath, walletPath as walletPagePath } from '../paths.js';
import { addressRef, policyKeys, policyLine, walletAddress, walletFigures, walletPath } from './wallet-parts.js';

/** Transactions and unspent outputs, this many a page (as the address page's history). */
export const WALLET_PAGE = 25;

type Query = Record<string, string | undefined>;

/** `?gap=N` as given (the service refuses a bad one with the reason, shown on the 404 page); absent: the default. */
function gapOf(query: Query): number | undefined {
  const text = query['gap'];
  if (text === undefined || text === '') return undefined;
  return /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
}

function nextAddresses(network: NetworkContext, o: WalletOverview, base: string): SafeHtml {
  const s = o.summary;
  return html`<dl class="kv">
<dt>Receive</dt><dd>${addressRef(network, s.nextReceive)}</dd>
<dt>Change</dt><dd>${s.nextChange ? addressRef(network, s.nextChange) : html`<span class="muted">none: this descriptor has one chain</span>`}</dd>
</dl>
<form class="gap-form" method="get" action="${base}">
<label for="gap">Gap limit</label> <input id="gap" name="gap" type="number" min="1" max="1000" value="${String(s.gap)}" inputmode="numeric">
<button type="submit" class="secondary">Scan again</button>
</form>
<p class="muted">A chain is read until ${count(s.gap)} addresses in a row are unused; addresses after such a gap are not found.</p>`;
}

function transactions(network: NetworkContext, o: WalletOverview, page: (q: Query) => string, now: number): SafeHtml {
  const coin = network.params.coin;
  const net = network.id;
  const { items, page: n } = o.transactions;
  const pages = Math.max(1, Math.ceil(o.summary.txsTotal / WALLET_PAGE));
  const rows = items.map((t) => html`<tr data-key="${t.txid}">
<td>${link(txPath(net, t.txid), hash(t.txid))}</td>
<td>${t.height === null ? badge('Unconfirmed', 'warn') : link(blockPath(net, t.height), count(t.height))}</td>
<td>${ago(t.time, now)}</td>
<td class="num ${t.received >= t.sent ? 'delta-in' : 'delta-out'}">${amount(t.received - t.sent, coin)}</td>
</tr>`);
  return html`${items.length === 0 ? html`<p class="muted">No transactions${n > 1 ? ' on this page' : ' yet'}.</p>` : table('Transactions of this wallet', html`<tr><th scope="col">Transaction</th><th scope="col">Block</th><th scope="col">Time</th><th scope="col" class="num">Balance change</th></tr>`, rows)}
${pager('Transaction pages', [
  { label: 'Newest', href: n === 1 ? null : page({ tx_page: undefined }) },
  { label: 'Newer', href: n === 1 ? null : page({ tx_page: String(n - 1) }), rel: 'prev' },
  { label: 'Older', href: n >= pages ? null : page({ tx_page: String(n + 1) }), rel: 'next' },
], `page ${count(n)} of ${count(pages)}`)}`;
}

function unspent(network: NetworkContext, o: WalletOverview, page: (q: Query) => string): SafeHtml {
  const coin = network.params.coin;
  const net = network.id;
  const { items, page: n } = o.unspent;
  const rows = items.map((u) => html`<tr>
<td>${link(outputPath(net, u.txid, u.vout), html`${hash(u.txid)}:${String(u.vout)}`)}</td>
<td>${walletAddress(network, u.address)}</td>
<td>${walletPath(u.path)}</td>
<td>${u.height === null ? badge('Unconfirmed', 'warn') : link(blockPath(net, u.height), count(u.height))}</td>
<td class="num">${amount(u.value, coin)}</td>
</tr>`);
  return html`${items.length === 0 ? html`<p class="muted">None${n > 1 ? ' on this page' : ''}.</p>` : table('Unspent outputs of this wallet', html`<tr><th scope="col">Output</th><th scope="col">Address</th><th scope="col">Path</th><th scope="col">Block</th><th scope="col" class="num">Value</th></tr>`, rows)}
${n > 1 || items.length === WALLET_PAGE ? pager('Unspent output pages', [
  { label: 'First', href: n === 1 ? null : page({ utxo_page: undefined }) },
  { label: 'Previous', href: n === 1 ? null : page({ utxo_page: String(n - 1) }), rel: 'prev' },
  { label: 'Next', href: items.length < WALLET_PAGE ? null : page({ utxo_page: String(n + 1) }), rel: 'next' },
]) : ''}`;
}

function usedAddresses(network: NetworkContext, o: WalletOverview): SafeHtml {
  const coin = network.params.coin;
  const rows = o.addresses.items.map((a) => html`<tr>
<td>${walletAddress(network, a.address)}</td>
<td>${walletPath(a.path)}</td>
<td class="num">${amount(a.confirmedBalance, coin)}</td>
<td class="num">${amount(a.unconfirmedBalance, coin)}</td>
<td class="num">${count(a.txsTotal)}</td>
</tr>`);
  return rows.length === 0 ? html`<p class="muted">None yet.</p>` : table('Used addresses of this wallet', html`<tr><th scope="col">Address</th><th scope="col">Path</th><th scope="col" class="num">Balance</th><th scope="col" class="num">Unconfirmed</th><th scope="col" class="num">Txs</th></tr>`, rows);
}

/**
 * What a live region of the wallet page follows (issue 50): the wallet's channel (txs of a wallet watched by a wallet
 * webhook, docs/realtime.md) and the network's blocks (confirmations), and where it reads itself again.
 */
function liveAttrs(network: NetworkContext, o: WalletOverview, base: string, part: string, gap: number | undefined): SafeHtml {
  const wallet = walletChannel(network.id, o.summary.descriptor.slice(o.summary.descriptor.lastIndexOf('#') + 1));
  const blocks = blockchainChannel(network.id);
  return html` data-live-on="${wallet}:balance_update ${wallet}:double_spend ${blocks}:block_update" data-live-src="${withQuery(base, { gap: gap === undefined ? undefined : String(gap), part })}"`;
}

function figures(network: NetworkContext, o: WalletOverview, base: string, gap: number | undefined): SafeHtml {
  return html`<div id="wallet-figures"${liveAttrs(network, o, base, 'summary', gap)}>${walletFigures(network, o.summary)}</div>`;
}

/** The first page of transactions follows the wallet live; later pages stay as they were read. */
function liveTransactions(network: NetworkContext, o: WalletOverview, base: string, gap: number | undefined, inner: SafeHtml): SafeHtml {
  if (o.transactions.page !== 1) return html`<div id="wallet-transactions">${inner}</div>`;
  return html`<div id="wallet-transactions"${liveAttrs(network, o, base, 'transactions', gap)}>${inner}</div>`;
}

/**
 * `/{net}/xpub/{key or descriptor}`: a wallet's figures, transactions newest first, unspent outputs and used addresses,
 * from the same service as the v3 routes (so the same numbers); `?gap=`, `?tx_page=`, `?utxo_page=`. Nothing asked is
 * stored (docs/wallets.md); a key or descriptor that is not this network's is a 404 page saying why.
 */
export async function walletPage(deps: ExplorerDeps, network: NetworkContext, wallet: string, request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply): Promise<FastifyReply> {
  const q = request.query;
  const gap = gapOf(q);
  const part = q['part'];
  const live = part === 'summary' || part === 'transactions';
  const o = await deps.services.wallets.overview(network.id, wallet, {
    ...(gap === undefined ? {} : { gap }), txPage: live ? 1 : pageNumber(q['tx_page']), utxoPage: live ? 1 : pageNumber(q['utxo_page']), pageSize: WALLET_PAGE,
  }, request.ip);
  const base = walletPagePath(network.id, wallet);
  const kept = { gap: q['gap'], tx_page: q['tx_page'], utxo_page: q['utxo_page'] };
  const page = (change: Query): string => withQuery(base, { ...kept, ...change });
  if (part === 'summary') return deps.shell.fragment(request, reply, figures(network, o, base, gap));
  if (part === 'transactions') return deps.shell.fragment(request, reply, liveTransactions(network, o, base, gap, transactions(network, o, (c) => withQuery(base, { gap: q['gap'], ...c }), deps.now())));
  const api = `/api/v3/xpub/${network.id}/${encodeURIComponent(wallet)}`;
  const gapQuery = gap === undefined ? '' : `?gap=${gap}`;
  const body = html`<h1>Wallet ${badge(network.id, 'neutral')}</h1>
<div class="copy-line"><pre id="descriptor">${o.summary.descriptor}</pre><button type="button" class="secondary" data-copy="descriptor" hidden>Copy</button></div>
<p id="policy">${policyLine(o.summary.policy)}</p>
<div class="address-head">
<section class="card" aria-labelledby="balance-title"><h2 id="balance-title">Balance</h2>
${figures(network, o, base, gap)}
</section>
<section class="card" aria-labelledby="next-title"><h2 id="next-title">Next unused addresses</h2>
${nextAddresses(network, o, base)}
</section>
</div>
<h2 id="keys">Keys</h2>
${policyKeys(o.summary.policy)}
<h2 id="transactions">Transactions</h2>
${liveTransactions(network, o, base, gap, transactions(network, o, page, deps.now()))}
<h2 id="unspent">Unspent outputs</h2>
${unspent(network, o, page)}
<h2 id="addresses">Used addresses</h2>
${usedAddresses(network, o)}
<p class="muted">Nothing you look up here is stored: the key stays in your browser's address bar and history only.</p>
${apiLinks(deps.publicUrl, [
  { label: 'v3 xpub (summary)', path: `${api}${gapQuery}`, needsKey: true },
  { label: 'v3 xpub transactions (page 1)', path: `${api}/transactions/1${gapQuery}`, needsKey: true },
  { label: 'v3 xpub unspent_outputs (page 1)', path: `${api}/unspent_outputs/1${gapQuery}`, needsKey: true },
  { label: 'v3 xpub addresses', path: `${api}/addresses${gapQuery}`, needsKey: true },
])}`;
  return deps.shell.page(request, reply, { title: `${network.params.name} wallet`, body, live: true });
}
