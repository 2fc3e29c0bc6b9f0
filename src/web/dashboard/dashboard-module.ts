/**
 * The account dashboard as a web module: its pages under /dashboard in their own plugin (CSRF guard on every
 * POST, no-store and a same-origin referrer policy on every answer, errors logged without query strings, which may hold one-time
 * codes) and the account links in the shared header. Served when the app has v3 accounts.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardServices } from '../../services/dashboard/create-dashboard-services.js';
import type { AccountServices } from '../../services/create-services.js';
import type { WebModule } from '../register-web.js';
import { errorPageFor } from '../shell/web-errors.js';
import { adminPlanPages } from './admin/admin-plans.pages.js';
import { adminPages } from './admin/admin.pages.js';
import { CookieJar } from './cookies.js';
import { installCsrfGuard } from './csrf-guard.js';
import type { DashboardContext } from './dashboard-context.js';
import { headerLinks } from './header-links.js';
import { keysPages } from './keys.pages.js';
import { webhookPages } from './webhooks/webhooks.pages.js';
import { overviewPage } from './overview.page.js';
import { recoveryPages } from './sign-in/recovery.pages.js';
import { secondFactorPages } from './sign-in/second-factor.pages.js';
import { securityPages } from './sign-in/security.pages.js';
import { signInPages } from './sign-in/sign-in.pages.js';
import { signUpPages } from './sign-in/sign-up.pages.js';

export interface DashboardWebOptions {
  /** Builds the dashboard's services on the app's v3 services (main wires mail, attempt counters, the secret key). */
  readonly services: (accounts: AccountServices) => DashboardServices;
}

export function dashboardModule(options: DashboardWebOptions): WebModule {
  return async (app, { shell, options: web, services, now }) => {
    if (!services.accounts) return;
    const d = options.services(services.accounts);
    d.housekeeping.start();
    app.addHook('onClose', async () => d.close());
    const ctx: DashboardContext = { shell, d, cookies: new CookieJar(web.publicUrl), publicUrl: web.publicUrl, logger: web.logger, now };
    shell.addHeaderSlot(headerLinks(ctx));
    await app.register(async (dash) => {
      dash.addHook('onSend', async (_request, reply, payload) => {
        // Pages with keys, codes and account data: never stored by a browser or proxy, never named in a Referer
        // to another site. (Not no-referrer: with it browsers send `Origin: null` on this site's own form posts.)
        reply.header('cache-control', 'no-store').header('referrer-policy', 'same-origin');
        return payload;
      });
      dash.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
        const page = errorPageFor(error);
        if (page.status >= 500) ctx.logger.error('dashboard page failed', { reqId: request.id, path: request.url.split('?')[0]!.slice(0, 200), error: String(error.stack ?? error) });
        return shell.errorPage(request, reply, page.status, page.title, page.message);
      });
      installCsrfGuard(dash, ctx);
      for (const pages of [signInPages, signUpPages, recoveryPages, overviewPage, keysPages, securityPages, secondFactorPages, adminPages, adminPlanPages]) {
        pages(dash, ctx);
      }
      if (services.webhooks) webhookPages(dash, ctx, services.webhooks);
    });
  };
}
