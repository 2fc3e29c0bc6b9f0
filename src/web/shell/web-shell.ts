import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebAssets } from './assets.js';
import { EMPTY_HTML, html, joinHtml, type SafeHtml } from './html.js';
import { sendHtml } from './html-reply.js';
import { layout, type NavLink } from './layout.js';
import { localPath, themeOf } from './theme.js';

/** Adds markup to the header's right side for one request (the dashboard: "Sign in" or the account's links). */
export type HeaderSlot = (request: FastifyRequest) => SafeHtml | Promise<SafeHtml>;

export interface WebShellOptions {
  readonly siteName: string;
  readonly assets: WebAssets;
  /** The realtime application key pages with live regions connect with. */
  readonly realtimeKey: string;
}

/** Header navigation for one request (the explorer: one link per configured network). */
export type NavProvider = (request: FastifyRequest) => readonly NavLink[];

export interface PageSpec {
  readonly title: string;
  readonly body: SafeHtml;
  /** Default 200. */
  readonly status?: number;
  readonly description?: string;
  /** The page has live regions (data-live-on): the client script connects to the realtime server. */
  readonly live?: boolean;
  /** Pre-fills the header search box. */
  readonly search?: string;
}

/**
 * The frame every web page shares (explorer and dashboard): layout, theme, assets, header slots, and the one
 * way to send HTML. Pages render their body with `html` and hand it to `page`; live regions re-render a part
 * and send it with `fragment`.
 */
export class WebShell {
  private readonly headerSlots: HeaderSlot[] = [];
  private nav: NavProvider = () => [];

  constructor(private readonly options: WebShellOptions) {}

  get assets(): WebAssets {
    return this.options.assets;
  }

  addHeaderSlot(slot: HeaderSlot): void {
    this.headerSlots.push(slot);
  }

  setNav(nav: NavProvider): void {
    this.nav = nav;
  }

  async page(request: FastifyRequest, reply: FastifyReply, spec: PageSpec): Promise<FastifyReply> {
    const { assets, siteName } = this.options;
    const slots = await Promise.all(this.headerSlots.map((slot) => slot(request)));
    const markup = layout({
      siteName,
      title: spec.title,
      description: spec.description ?? `${siteName}: blocks, transactions and addresses, live from our own index.`,
      theme: themeOf(request),
      css: assets.url('app.css'),
      js: assets.url('app.js'),
      favicon: assets.url('favicon.svg'),
      realtimeKey: spec.live ? this.options.realtimeKey : null,
      nav: this.nav(request),
      headerSlot: slots.length > 0 ? joinHtml(slots) : EMPTY_HTML,
      search: spec.search ?? '',
      path: localPath(request.url),
      body: spec.body,
    });
    return sendHtml(request, reply, spec.status ?? 200, markup.value);
  }

  /** A bare fragment for a live region (its outermost element carries the region's id). */
  fragment(request: FastifyRequest, reply: FastifyReply, body: SafeHtml): Promise<FastifyReply> {
    return sendHtml(request, reply, 200, body.value);
  }

  /** A friendly error page with the search box; never a stack trace. */
  errorPage(request: FastifyRequest, reply: FastifyReply, status: number, title: string, message: string | SafeHtml, search = ''): Promise<FastifyReply> {
    const body = html`<div class="error-page">
<h1>${title}</h1>
<p>${message}</p>
<form class="search" role="search" action="/search" method="get">
<label for="error-search">Search for an address, transaction, block hash or height</label>
<input id="error-search" type="search" name="q" value="${search}" autocomplete="off" spellcheck="false">
<button type="submit">Search</button>
</form>
<p><a href="/">Go to the start page</a></p>
</div>`;
    return this.page(request, reply, { title, body, status, search });
  }
}
