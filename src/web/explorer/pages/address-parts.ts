import type { AddressTotals } from '../../../core/store/chain-reads.js';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import type { TimelineCursor, TimelinePage } from '../../../services/addresses/address-timeline-service.js';
import { html, withQuery, type SafeHtml } from '../../shell/html.js';
import { amount, ago, badge, count, hash, link, table, txCount } from '../format.js';
import { pager } from '../pager.js';
import { addressCsvPath, addressPath, blockPath, txPath } from '../paths.js';
import { addressChannel, blockchainChannel } from '../../../services/events/catalogue/event-channels.js';

/** Balance figures; live on the address's balance_update (new txs) and on blocks (its txs confirm). */
export function addressSummary(network: NetworkContext, address: string, totals: AddressTotals): SafeHtml {
  const coin = network.params.coin;
  const net = network.id;
  return html`<div id="address-summary" data-live-on="${addressChannel(net, address)}:balance_update ${blockchainChannel(net)}:block_update" data-live-src="${addressPath(net, address)}?part=summary">
<dl class="kv">
<dt>Balance</dt><dd>${amount(totals.confirmedBalance, coin)}</dd>
<dt>Unconfirmed</dt><dd>${amount(totals.unconfirmedBalance, coin)}${totals.unconfirmedTxCount > 0 ? html` <span class="muted">(${txCount(totals.unconfirmedTxCount)})</span>` : ''}</dd>
<dt>Total received</dt><dd>${amount(totals.confirmedReceived, coin)}</dd>
<dt>Total sent</dt><dd>${amount(totals.confirmedSent, coin)}</dd>
<dt>Transactions</dt><dd>${count(totals.txCount)} confirmed${totals.unconfirmedTxCount > 0 ? ` · ${count(totals.unconfirmedTxCount)} unconfirmed` : ''}</dd>
</dl>
</div>`;
}

/** The query string of a history cursor (stable URLs: older/newer name a confirmed tx). */
export function cursorQuery(cursor: TimelineCursor): Record<string, string | number | undefined> {
  switch (cursor.kind) {
    case 'newest':
      return {};
    case 'older':
      return { older: cursor.txid };
    case 'newer':
      return { newer: cursor.txid };
    case 'skip':
      return { skip: cursor.count };
    case 'top':
      return { top: cursor.count };
    case 'oldest':
      return { oldest: 1 };
  }
}

const TXID = /^[0-9a-fA-F]{64}$/;

export function cursorFrom(query: Readonly<Record<string, string | undefined>>): TimelineCursor {
  if (query['older'] && TXID.test(query['older'])) return { kind: 'older', txid: query['older'].toLowerCase() };
  if (query['newer'] && TXID.test(query['newer'])) return { kind: 'newer', txid: query['newer'].toLowerCase() };
  if (query['skip'] && /^\d{1,9}$/.test(query['skip']) && Number(query['skip']) > 0) return { kind: 'skip', count: Number(query['skip']) };
  if (query['top'] && /^\d{1,3}$/.test(query['top']) && Number(query['top']) > 0) return { kind: 'top', count: Number(query['top']) };
  if (query['oldest'] === '1') return { kind: 'oldest' };
  return { kind: 'newest' };
}

/** One page of the history, newest first; the first page is live (a new tx appears as a new row). */
export function addressHistory(page: TimelinePage, cursor: TimelineCursor, now: number): SafeHtml {
  const { network, address } = page;
  const coin = network.params.coin;
  const net = network.id;
  const base = addressPath(net, address);
  const rows = page.entries.map(
    (e) => html`<tr data-key="${e.txid}">
<td>${link(txPath(net, e.txid), hash(e.txid))}</td>
<td>${e.height === null ? badge('Unconfirmed', 'warn') : link(blockPath(net, e.height), count(e.height))}</td>
<td>${ago(e.time, now)}</td>
<td class="num">${amount(e.received, coin)}</td>
<td class="num">${amount(e.sent, coin)}</td>
<td class="num ${e.received >= e.sent ? 'delta-in' : 'delta-out'}">${amount(e.received - e.sent, coin)}</td>
</tr>`,
  );
  const live = cursor.kind === 'newest' || cursor.kind === 'top';
  const attrs = live ? html` data-live-on="${addressChannel(net, address)}:balance_update ${blockchainChannel(net)}:block_update" data-live-src="${base}?part=history"` : '';
  const href = (c: TimelineCursor | null): string | null => (c === null ? null : withQuery(base, cursorQuery(c)));
  return html`<div id="address-history"${attrs}>
${page.entries.length === 0 ? html`<p class="muted">No transactions yet.</p>` : table('Transactions of this address', html`<tr><th scope="col">Transaction</th><th scope="col">Block</th><th scope="col">Time</th><th scope="col" class="num">Received</th><th scope="col" class="num">Sent</th><th scope="col" class="num">Balance change</th></tr>`, rows)}
${pager('History pages', [
  { label: 'Newest', href: cursor.kind === 'newest' ? null : base },
  { label: 'Newer', href: href(page.newer), rel: 'prev' },
  { label: 'Older', href: href(page.older), rel: 'next' },
  { label: 'Oldest', href: page.older === null ? null : withQuery(base, { oldest: 1 }) },
])}
<p><a href="${addressCsvPath(net, address)}" download>Download the whole history (CSV)</a></p>
</div>`;
}
