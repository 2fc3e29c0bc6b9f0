import { html, type SafeHtml } from './html.js';
import { THEMES, type Theme } from './theme.js';

export interface NavLink {
  readonly href: string;
  readonly label: string;
  readonly current: boolean;
}

/** Everything one full page needs; built per request by WebShell.page. */
export interface LayoutModel {
  readonly siteName: string;
  /** The page's own title (the site name is appended). */
  readonly title: string;
  readonly description: string;
  readonly theme: Theme;
  readonly css: string;
  readonly js: string;
  readonly favicon: string;
  /** Set when the page has live regions: the realtime application key the client connects with. */
  readonly realtimeKey: string | null;
  readonly nav: readonly NavLink[];
  /** Right side of the header: account links (the dashboard), empty by default. */
  readonly headerSlot: SafeHtml;
  /** Pre-filled value of the header's search box. */
  readonly search: string;
  /** This page's path and query: where the theme form returns to. */
  readonly path: string;
  readonly body: SafeHtml;
}

const BRAND_MARK = html`<svg viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="7" fill="#1a5fb4"/><circle cx="16" cy="16" r="8.5" fill="none" stroke="#fff" stroke-width="3.5"/><circle cx="16" cy="16" r="2.7" fill="#fff"/></svg>`;
const THEME_LABELS: Readonly<Record<Theme, string>> = { auto: 'Auto', light: 'Light', dark: 'Dark' };

/** The page frame: head with hashed assets, header (brand, networks, search, slot), main, footer (API, theme). */
export function layout(m: LayoutModel): SafeHtml {
  return html`<!doctype html>
<html lang="en"${m.theme === 'auto' ? '' : html` data-theme="${m.theme}"`}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${m.title ? `${m.title} · ${m.siteName}` : m.siteName}</title>
<meta name="description" content="${m.description}">
<meta name="color-scheme" content="${m.theme === 'auto' ? 'light dark' : m.theme}">
<link rel="icon" href="${m.favicon}" type="image/svg+xml">
<link rel="stylesheet" href="${m.css}">
<script type="module" src="${m.js}"></script>
${m.realtimeKey !== null && html`<meta name="outpoint-realtime" content="${m.realtimeKey}">`}
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><div class="bar">
<a class="brand" href="/">${BRAND_MARK}<span>${m.siteName}</span></a>
${m.nav.length > 0 && html`<nav class="site-nav" aria-label="Networks"><ul>${m.nav.map((l) => html`<li><a href="${l.href}"${l.current && html` aria-current="page"`}>${l.label}</a></li>`)}</ul></nav>`}
<form class="search" role="search" action="/search" method="get">
<label class="visually-hidden" for="site-search">Search</label>
<input id="site-search" type="search" name="q" value="${m.search}" placeholder="Address, transaction, block, height or xpub" autocomplete="off" spellcheck="false">
<button type="submit">Search</button>
</form>
<div class="header-slot">${m.headerSlot}</div>
</div></header>
<main id="main" tabindex="-1">
${m.body}
</main>
<footer class="site-footer"><div class="bar">
<span>${m.siteName} · <a href="/docs">API reference</a></span>
<form class="theme-switch" method="post" action="/theme" aria-labelledby="theme-label">
<span id="theme-label">Theme</span>
<input type="hidden" name="back" value="${m.path}">
${THEMES.map((t) => html`<button type="submit" name="theme" value="${t}" aria-pressed="${t === m.theme ? 'true' : 'false'}">${THEME_LABELS[t]}</button>`)}
</form>
</div></footer>
</body>
</html>
`;
}
