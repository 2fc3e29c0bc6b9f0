/**
 * The dashboard's HTTP-level rules on an in-process app (no browser): cookie names and attributes on http and
 * https, no-store, CSRF refusals (no Origin match, `null` origin, missing or foreign tokens) as 403 pages, one
 * answer for unknown emails and wrong passwords with a 429 and Retry-After once limited, link codes moved out of
 * URLs, administrators only on admin pages, the header's account links on every page, and the admin plans form.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { noPrices, silentLogger, type ChainStore } from '../../src/core/index.js';
import { buildHttpApp, rateCounters } from '../../src/main/wiring/http-wiring.js';
import { DEFAULT_ASSET_DIR } from '../../src/web/shell/asset-manifest.js';
import { dashboardModule } from '../../src/web/dashboard/dashboard-module.js';
import { createWeb } from '../../src/web/register-web.js';
import { WebAssets } from '../../src/web/shell/assets.js';
import { createDashboardServices } from '../../src/services/dashboard/create-dashboard-services.js';
import { MemoryAttemptCounter } from '../../src/counters/memory-attempt-counter.js';
import { PasswordHasher } from '../../src/services/dashboard/password-hasher.js';
import { SETTINGS } from '../helpers/dashboard-fixture.js';
import { StoreEngines } from '../helpers/store-engines.js';

const engines = new StoreEngines();
const apps: FastifyInstance[] = [];
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function dashboardApp(store: ChainStore, publicUrl: string, registration: 'open' | 'invite' = 'open'): Promise<FastifyInstance> {
  const web = createWeb(
    { publicUrl, realtimeKey: 'k', rateLimitPerSecond: 0, rateCounters: rateCounters(null), logger: silentLogger, assets: WebAssets.load(DEFAULT_ASSET_DIR) },
    [dashboardModule({
      services: (accounts) => createDashboardServices({
        accounts: accounts.keys, usage: accounts.usage, store: store.accounts(), auth: store.auth(), settings: { ...SETTINGS, registration, signinFailuresPerAccount: 3 },
        secretKey: new Uint8Array(32).fill(7), attempts: new MemoryAttemptCounter(), mailer: null, publicUrl, logger: silentLogger,
        now: () => Math.floor(Date.now() / 1000), hasher: new PasswordHasher(2, { ln: 10, r: 8, p: 1 }),
      }),
    })],
  );
  const app = await buildHttpApp({
    networks: new Map(), prices: noPrices, broadcaster: { broadcast: () => Promise.reject(new Error('no node')) }, publicUrl, rateLimitPerSecond: 0, redisUrl: null,
    logger: silentLogger, shortLinks: { shortFor: () => Promise.resolve('abc'), addressFor: () => Promise.resolve(null), findShort: () => Promise.resolve(null) }, accounts: store.accounts(), extensions: [web],
  });
  apps.push(app);
  return app;
}

/** GET a form page: its cookies (name=value) and the CSRF token in it. */
async function form(app: FastifyInstance, url: string, cookie = '') {
  const res = await app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!);
  return { res, cookie: [cookie, ...set].filter(Boolean).join('; '), csrf: /name="csrf" value="([^"]+)"/.exec(res.body)?.[1] ?? '' };
}

function post(app: FastifyInstance, url: string, cookie: string, fields: Record<string, string>, origin?: string) {
  return app.inject({ method: 'POST', url, headers: { ...FORM, cookie, ...(origin !== undefined ? { origin } : {}) }, payload: new URLSearchParams(fields).toString() });
}

let store: ChainStore;
before(async () => {
  store = (await engines.create('sqlite')).store;
});
after(async () => {
  for (const app of apps) await app.close();
  await engines.close();
});

describe('dashboard over HTTP', () => {
  it('http: plain cookie names; https: __Host- names, Secure; HttpOnly and SameSite=Lax always; pages are no-store', async () => {
    const plain = await form(await dashboardApp(store, 'http://outpoint.test'), '/dashboard/sign-up');
    assert.match(String(plain.res.headers['set-cookie']), /^outpoint_csrf=[A-Za-z0-9_-]{43}; Max-Age=86400; Path=\/; HttpOnly; SameSite=Lax$/);
    assert.equal(plain.res.headers['cache-control'], 'no-store');
    assert.equal(plain.res.headers['referrer-policy'], 'same-origin');
    const https = await dashboardApp(store, 'https://outpoint.test');
    const secure = await form(https, '/dashboard/sign-up');
    assert.match(String(secure.res.headers['set-cookie']), /^__Host-outpoint_csrf=.*; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    const made = await post(https, '/dashboard/sign-up', secure.cookie, { csrf: secure.csrf, email: 'tls@x.io', password: 'long password 1' }, 'https://outpoint.test');
    assert.equal(made.statusCode, 303);
    assert.match(([] as string[]).concat(made.headers['set-cookie'] ?? []).join('\n'), /__Host-outpoint_session=[A-Za-z0-9_-]{43}; Max-Age=86400; Path=\/; HttpOnly; SameSite=Lax; Secure/);
  });

  it('refuses posts from other origins, with a null origin, without or with a foreign token: 403, never a redirect', async () => {
    const app = await dashboardApp(store, 'http://outpoint.test');
    const page = await form(app, '/dashboard/sign-up');
    const fields = { csrf: page.csrf, email: 'csrf@x.io', password: 'long password 1' };
    for (const [label, res] of [
      ['other origin', await post(app, '/dashboard/sign-up', page.cookie, fields, 'http://evil.test')],
      ['null origin', await post(app, '/dashboard/sign-up', page.cookie, fields, 'null')],
      ['cross-site fetch', await app.inject({ method: 'POST', url: '/dashboard/sign-up', headers: { ...FORM, cookie: page.cookie, 'sec-fetch-site': 'cross-site' }, payload: new URLSearchParams(fields).toString() })],
      ['no token', await post(app, '/dashboard/sign-up', page.cookie, { ...fields, csrf: '' }, 'http://outpoint.test')],
      ['token of another cookie', await post(app, '/dashboard/sign-up', (await form(app, '/dashboard/sign-up')).cookie, fields, 'http://outpoint.test')],
    ] as const) {
      assert.equal(res.statusCode, 403, label);
      assert.equal(res.headers.location, undefined, label);
      assert.match(res.body, /Form refused/, label);
    }
    assert.equal(await store.accounts().findAccountByEmail('csrf@x.io'), null, 'nothing was made');
    const ok = await post(app, '/dashboard/sign-up', page.cookie, fields, 'http://outpoint.test');
    assert.equal(ok.statusCode, 303);
    const session = ([] as string[]).concat(ok.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!).find((c) => c.startsWith('outpoint_session='))!;
    // A signed-in form needs the session-bound token: the pre-session one is refused.
    assert.equal((await post(app, '/dashboard/security/sessions/end-others', `${page.cookie}; ${session}`, { csrf: page.csrf }, 'http://outpoint.test')).statusCode, 403);
    const security = await form(app, '/dashboard/security', session);
    assert.equal((await post(app, '/dashboard/security/sessions/end-others', session, { csrf: security.csrf })).statusCode, 303, 'no Origin header: the token decides');
  });

  it('sign-in: the same page for an unknown email and a wrong password; then 429 with Retry-After, no count shown', async () => {
    const app = await dashboardApp(store, 'http://outpoint.test');
    const page = await form(app, '/dashboard/sign-up');
    await post(app, '/dashboard/sign-up', page.cookie, { csrf: page.csrf, email: 'known@x.io', password: 'long password 1' });
    const signIn = await form(app, '/dashboard/sign-in');
    const attempt = (email: string, password: string) => post(app, '/dashboard/sign-in', signIn.cookie, { csrf: signIn.csrf, email, password, next: '/dashboard' });
    const strip = (body: string) => body.replace(/value="[^"]*"/g, '');
    const wrong = await attempt('known@x.io', 'wrong password');
    const unknown = await attempt('nobody@x.io', 'wrong password');
    assert.deepEqual([wrong.statusCode, unknown.statusCode], [401, 401]);
    assert.equal(strip(wrong.body), strip(unknown.body), 'one page for both');
    await attempt('known@x.io', 'wrong password');
    await attempt('known@x.io', 'wrong password');
    const limited = await attempt('known@x.io', 'long password 1');
    assert.equal(limited.statusCode, 429);
    assert.ok(Number(limited.headers['retry-after']) > 800);
    assert.match(limited.body, /Too many attempts\. Try again in 15 minutes\./);
    assert.doesNotMatch(limited.body, /attempts? (left|remaining)/i);
  });

  it('moves link codes out of the URL; admin pages are for administrators; the header offers sign-in and, when open, sign-up', async () => {
    const app = await dashboardApp(store, 'http://outpoint.test', 'invite');
    const code = 'A'.repeat(43);
    const arrive = await app.inject({ method: 'GET', url: `/dashboard/reset?token=${code}` });
    assert.equal(arrive.statusCode, 303);
    assert.equal(arrive.headers.location, '/dashboard/reset');
    assert.match(String(arrive.headers['set-cookie']), new RegExp(`^outpoint_reset=${code}; Max-Age=3600;`));
    const expired = await app.inject({ method: 'GET', url: '/dashboard/reset', headers: { cookie: `outpoint_reset=${code}` } });
    assert.equal(expired.statusCode, 410);
    const closed = await app.inject({ method: 'GET', url: '/dashboard/sign-up' });
    assert.equal(closed.statusCode, 403);
    assert.match(closed.body, /by invitation/);
    const anywhere = await app.inject({ method: 'GET', url: '/no/such/page' });
    assert.match(anywhere.body, /<a href="\/dashboard\/sign-in">Sign in<\/a>/);
    assert.doesNotMatch(anywhere.body, /Sign up/, 'no sign-up link while registration is by invite');
    const open = await dashboardApp(store, 'http://outpoint.test', 'open');
    assert.match((await open.inject({ method: 'GET', url: '/no/such/page' })).body, /<a href="\/dashboard\/sign-up">Sign up<\/a>/);
    const page = await form(open, '/dashboard/sign-up');
    const made = await post(open, '/dashboard/sign-up', page.cookie, { csrf: page.csrf, email: 'plain@x.io', password: 'long password 1' });
    const session = ([] as string[]).concat(made.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!).find((c) => c.startsWith('outpoint_session='))!;
    assert.equal((await open.inject({ method: 'GET', url: '/dashboard/admin', headers: { cookie: session } })).statusCode, 403);
    assert.equal((await open.inject({ method: 'GET', url: '/dashboard/admin' })).headers.location, '/dashboard/sign-in?next=%2Fdashboard%2Fadmin');
    const explorerPage = await open.inject({ method: 'GET', url: '/no/such/page', headers: { cookie: session } });
    assert.match(explorerPage.body, /<a href="\/dashboard">Dashboard<\/a>/);
    assert.match(explorerPage.body, /action="\/dashboard\/sign-out"/);
  });

  it("admin plans form: sets the daily and the concurrency limit; an empty concurrency keeps the plan's", async () => {
    const app = await dashboardApp(store, 'http://outpoint.test');
    const page = await form(app, '/dashboard/sign-up');
    const made = await post(app, '/dashboard/sign-up', page.cookie, { csrf: page.csrf, email: 'plans-admin@x.io', password: 'long password 1' });
    const session = ([] as string[]).concat(made.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!).find((c) => c.startsWith('outpoint_session='))!;
    const id = (await store.accounts().findAccountByEmail('plans-admin@x.io'))!.id;
    await store.accounts().updateAccount(id, { isAdmin: true });
    const plans = await form(app, '/dashboard/admin/plans', session);
    const save = (fields: Record<string, string>) => post(app, '/dashboard/admin/plans', session, { csrf: plans.csrf, name: 'eight', ...fields });
    const first = await save({ max: '1000', concurrent: '8' });
    assert.equal(first.statusCode, 200);
    assert.match(first.body, /Plan eight allows 1,000 requests per day and 8 at once/);
    // Each cell carries its heading for the phone layout (shell/data-table.ts).
    assert.match(first.body, /<td data-label="Plan">eight<\/td><td data-label="Requests per UTC day" class="num">1,000<\/td><td data-label="Requests at once" class="num">8<\/td>/);
    assert.match((await save({ max: '2000', concurrent: '' })).body, /Plan eight allows 2,000 requests per day and 8 at once/, 'kept');
    assert.match((await save({ max: '2000', concurrent: '0' })).body, /Plan eight allows 2,000 requests per day and no limit at once/);
    assert.equal((await save({ max: '2000', concurrent: 'x' })).statusCode, 400);
    assert.deepEqual(await store.accounts().getPlan('eight').then((p) => [p?.maxDailyRequests, p?.maxConcurrentRequests]), [2000, 0]);
  });
});
