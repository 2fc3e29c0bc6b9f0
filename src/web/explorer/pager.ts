import { html, type SafeHtml } from '../shell/html.js';

export interface PagerLink {
  readonly label: string;
  /** null: shown as plain text (there is no such page). */
  readonly href: string | null;
  readonly rel?: 'prev' | 'next';
}

/** A row of page links; missing pages stay as text so the row does not jump around. */
export function pager(label: string, links: readonly PagerLink[], note?: string): SafeHtml {
  return html`<nav class="pager" aria-label="${label}">${links.map((l) =>
    l.href === null ? html`<span class="muted">${l.label}</span>` : html`<a href="${l.href}"${l.rel ? html` rel="${l.rel}"` : ''}>${l.label}</a>`,
  )}${note ? html`<span class="muted">${note}</span>` : ''}</nav>`;
}

/** A positive page number from a query value, or `fallback` for anything else. */
export function pageNumber(value: unknown, fallback = 1): number {
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) return fallback;
  return Math.max(1, Number(value));
}
