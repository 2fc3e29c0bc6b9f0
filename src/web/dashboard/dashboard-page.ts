/** The dashboard's page frame inside the shared layout: a section navigation for signed-in users, times, the page call. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DASHBOARD_PATH } from '../../services/accounts/dashboard-links.js';
import { relativeTime, utcTime } from '../shared/relative-time.js';
import { html, type SafeHtml } from '../shell/html.js';
import type { DashboardContext, SignedIn } from './dashboard-context.js';

export type Section = 'overview' | 'keys' | 'webhooks' | 'security' | 'admin';

const SECTIONS: readonly (readonly [Section, string, string])[] = [
  ['overview', 'Overview', DASHBOARD_PATH],
  ['keys', 'API keys', `${DASHBOARD_PATH}/keys`],
  ['webhooks', 'Webhooks', `${DASHBOARD_PATH}/webhooks`],
  ['security', 'Security', `${DASHBOARD_PATH}/security`],
  ['admin', 'Admin', `${DASHBOARD_PATH}/admin`],
];

export interface DashboardPage {
  readonly title: string;
  readonly body: SafeHtml;
  readonly status?: number;
  /** Signed-in pages get the section navigation. */
  readonly user?: SignedIn;
  readonly section?: Section;
}

export function sendPage(ctx: DashboardContext, request: FastifyRequest, reply: FastifyReply, page: DashboardPage): Promise<FastifyReply> {
  const nav = page.user
    ? html`<nav class="dash-nav" aria-label="Dashboard"><ul>${SECTIONS.filter(([s]) => s !== 'admin' || page.user!.account.isAdmin).map(
        ([s, label, href]) => html`<li><a href="${href}"${s === page.section && html` aria-current="page"`}>${label}</a></li>`,
      )}</ul></nav>`
    : null;
  const body = html`<div class="dashboard">${nav}${page.body}</div>`;
  return ctx.shell.page(request, reply, { title: page.title, body, ...(page.status !== undefined ? { status: page.status } : {}), description: 'Your Outpoint account: API keys, usage and security.' });
}

/** A time as "3 min ago" (kept current by the page script) with the exact UTC time as its title. */
export function when(time: number | null, now: number, never = 'never'): SafeHtml {
  if (time === null || time === 0) return html`${never}`;
  return html`<time datetime="${new Date(time * 1000).toISOString()}" title="${utcTime(time)}" data-rel="${time}">${relativeTime(time, now)}</time>`;
}

/** An absolute UTC date-time (period ends, expiries). */
export function at(time: number): SafeHtml {
  return html`<time datetime="${new Date(time * 1000).toISOString()}">${utcTime(time)}</time>`;
}

/** Thousands separated by a thin space-free comma: 12,345. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
