/**
 * The web shell on the API's app, without a node: HTML 404 beside the APIs' JSON 404, security headers,
 * escaping, compression, hashed immutable assets, the theme cookie, and the page rate limit counted apart
 * from v2's.
 */
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { noPrices, silentLogger } from '../../src/core/index.js';
import { buildHttpApp, rateCounters } from '../../src/main/wiring/http-wiring.js';
import { DEFAULT_ASSET_DIR } from '../../src/web/shell/asset-manifest.js';
import { createWeb, type WebModule } from '../../src/web/register-web.js';
import { WebAssets } from '../../src/web/shell/assets.js';
import { html } from '../../src/web/shell/html.js';

const echo: WebModule = (app, { shell }) => {
  app.get<{ Querystring: { q?: string } }>('/shell-echo', { config: { liveParts: ['x'] } }, (request, reply) =>
    shell.page(request, reply, { title: `Echo ${request.query.q ?? ''}`, body: html`<p id="echo">${request.query.q ?? ''}</p>${'x'.repeat(3000)}`, live: true, search: request.query.q ?? '' }),
  );
  app.get('/shell-fails', () => {
    throw new Error('secret internal detail');
  });
};

async function appWith(limits: { api: number; web: number; live?: number }): Promise<FastifyInstance> {
  const web = createWeb(
    { publicUrl: 'http://outpoint.test', realtimeKey: 'shell-key', rateLimitPerSecond: limits.web, ...(limits.live !== undefined ? { liveRateLimitPerSecond: limits.live } : {}), rateCounters: rateCounters(null), logger: silentLogger, assets: WebAssets.load(DEFAULT_ASSET_DIR) },
    [echo],
  );
  return buildHttpApp({
    networks: new Map(),
    prices: noPrices,
    broadcaster: { broadcast: () => Promise.reject(new Error('no node')) },
    publicUrl: 'http://outpoint.test',
    rateLimitPerSecond: limits.api,
    redisUrl: null,
    logger: silentLogger,
    shortLinks: { shortFor: () => Promise.resolve('abc'), addressFor: () => Promise.resolve(null), findShort: () => Promise.resolve(null) },
    extensions: [web],
  });
}

describe('web shell', () => {
  let app: FastifyInstance;
  before(async () => {
    app = await appWith({ api: 0, web: 0 });
  });
  after(async () => app.close());

  it('unknown paths get an HTML 404 with the search box; /api/ keeps its JSON 404', async () => {
    const page = await app.inject({ method: 'GET', url: '/no/such/page' });
    assert.equal(page.statusCode, 404);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /<form class="search"[^>]*action="\/search"/);
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
    for (const url of ['/api/v2/nope', '/api', '/api/v3/nope/x']) {
      const api = await app.inject({ method: 'GET', url });
      assert.equal(api.statusCode, 404, url);
      assert.deepEqual(JSON.parse(api.body), { status: 'fail', data: { path: `no endpoint GET ${url}` } });
    }
  });

  it('escapes what the visitor typed, sets the security headers, connects live pages to realtime', async () => {
    const q = `<script>alert("x")</script>`;
    const res = await app.inject({ method: 'GET', url: `/shell-echo?q=${encodeURIComponent(q)}` });
    assert.equal(res.statusCode, 200);
    assert.ok(!res.body.includes('<script>alert'), 'no live script tag from user text');
    assert.match(res.body, /<p id="echo">&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;<\/p>/);
    assert.match(res.body, /<meta name="outpoint-realtime" content="shell-key">/);
    assert.match(res.body, /<script type="module" src="\/assets\/app\.[0-9a-f]{12}\.js"><\/script>/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.headers['access-control-allow-origin'], undefined, 'no API CORS header on pages');
    const csp = String(res.headers['content-security-policy']);
    assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval') && !csp.includes('http'), csp);
    // no inline script anywhere: every <script> has a src
    assert.equal([...res.body.matchAll(/<script(?![^>]*\ssrc=)[^>]*>/g)].length, 0);
  });

  it('compresses pages with brotli or gzip as the client accepts', async () => {
    const plain = await app.inject({ method: 'GET', url: '/shell-echo?q=1' });
    const br = await app.inject({ method: 'GET', url: '/shell-echo?q=1', headers: { 'accept-encoding': 'gzip, br' } });
    const gz = await app.inject({ method: 'GET', url: '/shell-echo?q=1', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body);
    assert.equal(gunzipSync(gz.rawPayload).toString(), plain.body);
    assert.ok(br.rawPayload.length < plain.rawPayload.length / 2);
  });

  it('serves hashed assets immutable and precompressed, and a favicon', async () => {
    const page = await app.inject({ method: 'GET', url: '/shell-echo' });
    for (const href of [...page.body.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!)) {
      const res = await app.inject({ method: 'GET', url: href, headers: { 'accept-encoding': 'br' } });
      assert.equal(res.statusCode, 200, href);
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(res.headers['content-encoding'], 'br');
    }
    const ico = await app.inject({ method: 'GET', url: '/favicon.ico' });
    assert.equal(ico.statusCode, 200);
    assert.equal(ico.headers['content-type'], 'image/x-icon');
    assert.equal((await app.inject({ method: 'GET', url: '/assets/app.000000000000.js' })).statusCode, 404);
  });

  it('a theme choice is a cookie the next page is rendered with (no flash, no script)', async () => {
    const set = await app.inject({ method: 'POST', url: '/theme', payload: 'theme=dark&back=%2Fshell-echo%3Fq%3D1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(set.statusCode, 303);
    assert.equal(set.headers.location, '/shell-echo?q=1');
    const cookie = String(set.headers['set-cookie']).split(';')[0]!;
    assert.equal(cookie, 'outpoint_theme=dark');
    assert.doesNotMatch(String(set.headers['set-cookie']), /Secure/, 'plain HTTP: a Secure cookie would be dropped (over HTTPS: test/e2e/https.test.ts)');
    const dark = await app.inject({ method: 'GET', url: '/shell-echo', headers: { cookie } });
    assert.match(dark.body, /<html lang="en" data-theme="dark">/);
    assert.match(dark.body, /value="dark" aria-pressed="true"/);
    const auto = await app.inject({ method: 'GET', url: '/shell-echo' });
    assert.match(auto.body, /<html lang="en">/);
    const away = await app.inject({ method: 'POST', url: '/theme', payload: 'theme=light&back=%2F%2Fevil.example', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(away.headers.location, '/');
  });

  it('errors become HTML pages without internals', async () => {
    const res = await app.inject({ method: 'GET', url: '/shell-fails' });
    assert.equal(res.statusCode, 500);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.ok(!res.body.includes('secret internal detail'));
  });
});

describe('web page rate limit', () => {
  it('limits pages per IP apart from the v2 budget, with an HTML 429', async () => {
    const app = await appWith({ api: 2, web: 3 });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) codes.push((await app.inject({ method: 'GET', url: '/shell-echo' })).statusCode);
      assert.deepEqual(codes, [200, 200, 200, 429, 429]);
      const limited = await app.inject({ method: 'GET', url: '/shell-echo' });
      assert.match(String(limited.headers['content-type']), /^text\/html/);
      assert.ok(Number(limited.headers['retry-after']) >= 1);
      // Assets are not counted, and the API budget is untouched by the pages above.
      const page = await app.inject({ method: 'GET', url: '/favicon.ico' });
      assert.equal(page.statusCode, 200);
      const api = await app.inject({ method: 'GET', url: '/api/v2/get_info/LTC' });
      assert.equal(api.headers['ratelimit-remaining'], '1');
    } finally {
      await app.close();
    }
  });

  it('counts live-region refreshes (?part=) apart from pages: open tabs do not use up the page budget', async () => {
    const app = await appWith({ api: 0, web: 2, live: 4 });
    try {
      const get = async (url: string): Promise<number> => (await app.inject({ method: 'GET', url })).statusCode;
      const live: number[] = [];
      for (let i = 0; i < 5; i++) live.push(await get('/shell-echo?part=x'));
      assert.deepEqual(live, [200, 200, 200, 200, 429]);
      assert.deepEqual([await get('/shell-echo'), await get('/shell-echo'), await get('/shell-echo')], [200, 200, 429]);
      const refused = await app.inject({ method: 'GET', url: '/shell-echo?part=x' });
      assert.match(refused.body, /live updates per second/);
    } finally {
      await app.close();
    }
  });

  it('a part the page does not have is a 404 counted as a page, not a live refresh (issue 46)', async () => {
    const app = await appWith({ api: 0, web: 2, live: 10 });
    try {
      const unknown = await app.inject({ method: 'GET', url: '/shell-echo?part=zzz' });
      assert.equal(unknown.statusCode, 404);
      assert.match(String(unknown.headers['content-type']), /^text\/html/);
      assert.equal(unknown.headers['ratelimit-limit'], '2', 'counted under the page budget');
      assert.equal((await app.inject({ method: 'GET', url: '/shell-echo?part=zzz&part=x' })).statusCode, 404, 'a repeated part is no part of the page');
      assert.equal((await app.inject({ method: 'GET', url: '/shell-echo' })).statusCode, 429, 'the two 404s spent the page budget');
      assert.equal((await app.inject({ method: 'GET', url: '/shell-echo?part=x' })).statusCode, 200, 'the live budget is untouched');
    } finally {
      await app.close();
    }
  });
});
