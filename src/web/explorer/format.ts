import { formatCoins, type Sats } from '../../core/domain/money.js';
import type { CoinId } from '../../core/domain/network.js';
import { feeRateUnit } from '../../chains/networks.js';
import { relativeTime, utcTime } from '../shared/relative-time.js';
import { dataTable } from '../shell/data-table.js';
import { html, type SafeHtml } from '../shell/html.js';

/**
 * An amount as the APIs write it: exactly 8 decimals, no grouping, no markup inside the number; the unit after
 * it. Negative amounts keep their sign.
 */
export function amount(value: Sats, coin: CoinId): SafeHtml {
  return html`<span class="coins"><span class="amount">${formatCoins(value)}</span> ${coin}</span>`;
}

/** A time both absolute (UTC) and relative; the client script keeps the relative part current. */
export function when(time: number, now: number): SafeHtml {
  const iso = new Date(time * 1000).toISOString();
  return html`<time datetime="${iso}">${utcTime(time)}</time> <span class="muted">(<span data-rel="${time}">${relativeTime(time, now)}</span>)</span>`;
}

/** Only the relative part, with the absolute time as a tooltip (dense tables). */
export function ago(time: number, now: number): SafeHtml {
  const iso = new Date(time * 1000).toISOString();
  return html`<time datetime="${iso}" title="${utcTime(time)}"><span data-rel="${time}">${relativeTime(time, now)}</span></time>`;
}

const GROUPED = new Intl.NumberFormat('en-US');

/** A count with thousands separators (never an amount: amounts are written as the APIs write them). */
export function count(value: number): string {
  return GROUPED.format(value);
}

/** "1 tx", "2 txs": a count and its noun in the right number. */
export function plural(value: number, one: string, many = `${one}s`): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}

export function txCount(value: number): string {
  return plural(value, 'tx');
}

/** Bytes with a binary-free decimal unit, as block explorers show sizes. */
export function bytes(value: number): string {
  if (value < 1_000) return `${value} B`;
  if (value < 1_000_000) return `${(value / 1_000).toFixed(1)} kB`;
  return `${(value / 1_000_000).toFixed(2)} MB`;
}

/** A fee rate in the coin's base units per virtual byte ("litoshi/vB", as v3 writes it), two decimals. */
export function feeRate(rate: number, coin: CoinId): string {
  return `${rate.toFixed(2)} ${feeRateUnit(coin)}`;
}

/** A hash or id in monospace that wraps; the full text is always there (copy, screen readers). */
export function hash(text: string): SafeHtml {
  return html`<span class="hash">${text}</span>`;
}

export function link(href: string, content: SafeHtml | string): SafeHtml {
  return html`<a href="${href}">${content}</a>`;
}

export type BadgeTone = 'ok' | 'warn' | 'bad' | 'neutral';

export function badge(text: string, tone: BadgeTone): SafeHtml {
  return html`<span class="badge ${tone}">${text}</span>`;
}

/** A table in a focusable scroll region; three or more columns stack as cards at phone widths (shell/data-table.ts). */
export function table(label: string, head: SafeHtml, rows: readonly SafeHtml[], id?: string): SafeHtml {
  return dataTable({ label, head, rows, ...(id ? { id } : {}) });
}
