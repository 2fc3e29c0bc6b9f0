/**
 * The API reference (issue 29): /api/v2/openapi.json and /api/v3/openapi.json hold every route Fastify registered
 * under their prefix and nothing else, v3's with the API-KEY security scheme and its error shapes; /docs renders both
 * for people, with an example per operation, accessible (axe, light and dark) and readable at 1280 and 375 px
 * (screenshots in dist/screenshots/reference/).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Browser } from 'playwright-core';
import { ApiDocuments, type OpenApiDocument } from '../../src/core/infrastructure/api-documents.js';
import { noPrices, silentLogger, type AccountStore } from '../../src/core/index.js';
import { buildHttpApp, rateCounters } from '../../src/main/wiring/http-wiring.js';
import { referenceModule } from '../../src/web/reference/reference-module.js';
import { createWeb } from '../../src/web/register-web.js';
import { DEFAULT_ASSET_DIR } from '../../src/web/shell/asset-manifest.js';
import { WebAssets } from '../../src/web/shell/assets.js';
import { launchChromium, screenshot, seriousViolations, watchedPage } from '../helpers/browser.js';
import { registeredRoutes } from '../helpers/route-list.js';

const documents = new ApiDocuments();
let app: FastifyInstance;
let url: string;
let browser: Browser;

before(async () => {
  const web = createWeb({ publicUrl: 'https://outpoint.test', realtimeKey: 'k', rateLimitPerSecond: 0, rateCounters: rateCounters(null), logger: silentLogger, assets: WebAssets.load(DEFAULT_ASSET_DIR) }, [referenceModule(documents)]);
  app = await buildHttpApp({
    networks: new Map(), prices: noPrices, broadcaster: { broadcast: () => Promise.reject(new Error('unused')) }, publicUrl: 'https://outpoint.test',
    rateLimitPerSecond: 0, redisUrl: null, logger: silentLogger, shortLinks: { shortFor: () => Promise.reject(new Error('unused')), addressFor: () => Promise.resolve(null), findShort: () => Promise.resolve(null) },
    accounts: {} as AccountStore, apiDocuments: documents, extensions: [web],
  });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await app?.close();
});

const published = (version: string): OpenApiDocument => documents.list().find((d) => d.version === version)?.document ?? assert.fail(`no ${version} document`);
const operations = (doc: OpenApiDocument) => Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })));

describe('OpenAPI documents', () => {
  it('every registered API route is in its version\'s document, and the documents hold nothing else', () => {
    const routes = registeredRoutes(app).filter((r) => /^\/api\/v[23]\//.test(r.url));
    assert.ok(routes.length > 45, `routes found: ${routes.length}`);
    for (const route of routes) {
      const doc = published(route.url.split('/')[2]!);
      const path = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
      assert.ok(doc.paths[path]?.[route.method.toLowerCase()], `${route.method} ${route.url} is in its document`);
    }
    for (const version of ['v2', 'v3']) {
      for (const { path, method } of operations(published(version))) {
        const route = routes.find((r) => r.method.toLowerCase() === method && r.url.replace(/:([A-Za-z_]+)/g, '{$1}') === path);
        assert.ok(route, `${method} ${path} is a registered route`);
      }
    }
  });

  it('v3: the API-KEY scheme on every operation but the document, its 401/429 and error shapes; served without a key', async () => {
    const doc = published('v3');
    const reply = await app.inject('/api/v3/openapi.json');
    assert.equal(reply.statusCode, 200);
    assert.deepEqual(reply.json(), JSON.parse(JSON.stringify(doc)));
    assert.match(doc.openapi, /^3\.1\./);
    assert.deepEqual(doc.components?.securitySchemes, { apiKey: { type: 'apiKey', in: 'header', name: 'API-KEY' } });
    assert.deepEqual(doc.security, [{ apiKey: [] }]);
    const failure = { status: { type: 'string', enum: ['fail'] }, error_message: { type: 'string' } };
    for (const { path, operation } of operations(doc)) {
      if (path === '/api/v3/openapi.json') {
        assert.deepEqual(operation.security, [], 'the document needs no key');
        continue;
      }
      assert.equal(operation.security, undefined, path);
      // account_info is quota-free: it answers over quota (so a client can see why), never 429.
      const expected = path === '/api/v3/account_info' ? ['200', '401', '4XX', '5XX'] : ['200', '401', '429', '4XX', '5XX'];
      assert.deepEqual(Object.keys(operation.responses).sort(), expected, path);
      for (const status of expected.slice(1)) {
        const schema = operation.responses[status]!.content!['application/json']!.schema as { properties: Record<string, { properties?: Record<string, unknown> } & Record<string, unknown>> };
        assert.deepEqual({ status: schema.properties['status'], error_message: schema.properties['data']!.properties!['error_message'] }, failure, `${path} ${status}`);
      }
    }
  });

  it('both: unique operation ids, every path parameter declared, JSONP on v2 only', () => {
    for (const version of ['v2', 'v3']) {
      const ops = operations(published(version));
      assert.equal(new Set(ops.map((o) => o.operation.operationId)).size, ops.length, `${version} operation ids are unique`);
      for (const { path, operation } of ops) {
        const declared = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
        assert.deepEqual(declared, [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]), `${version} ${path}`);
        assert.equal(operation.parameters.some((p) => p.in === 'query' && p.name === 'callback'), version === 'v2', `${version} ${path} JSONP`);
      }
    }
  });
});

describe('/docs', () => {
  it('shows every path of both documents, each operation with a curl line (v3 with its key header)', async () => {
    const reply = await app.inject('/docs');
    assert.equal(reply.statusCode, 200);
    assert.match(String(reply.headers['content-type']), /^text\/html/);
    const page = reply.body.replaceAll('<wbr>', '');
    for (const version of ['v2', 'v3']) {
      assert.match(page, new RegExp(`<h2 id="${version}-title">${version} REST API</h2>`));
      for (const { path } of operations(published(version))) assert.ok(page.includes(`<code class="path">${path}</code>`), `${path} on the page`);
    }
    const articles = [...page.matchAll(/<article class="operation" id="(v[23])-([^"]+)"[\s\S]*?<\/article>/g)];
    assert.ok(articles.length >= 40, `operations shown: ${articles.length}`);
    for (const [article, version, id] of articles) {
      const curl = /<pre id="[^"]+-curl">(curl [^<]+)<\/pre>/.exec(article!)?.[1] ?? assert.fail(`${version}-${id} has no curl line`);
      assert.ok(curl.includes('https://outpoint.test/api/'), curl);
      assert.equal(curl.includes('API-KEY: $OUTPOINT_API_KEY'), version === 'v3' && id !== 'openapi_json', curl);
    }
    assert.match(page, /<a href="\/docs">API reference<\/a>/, 'the footer links the reference');
  });

  // axe on this long page is the costly part: both schemes at desktop width, the narrow one in light.
  for (const [width, schemes] of [[1280, ['light', 'dark']], [375, ['light']]] as const) {
    it(`at ${width} px: no serious accessibility violation (${schemes.join(' and ')}), no sideways scroll, the copy buttons work`, async () => {
      for (const colorScheme of schemes) {
        const { page, problems, context } = await watchedPage(browser, { viewport: { width, height: 900 }, colorScheme });
        try {
          await page.goto(`${url}/docs#v3`);
          assert.deepEqual(await seriousViolations(page), [], `axe at ${width} px (${colorScheme})`);
          const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
          assert.ok(overflow <= 0, `sideways scroll of ${overflow} px`);
          assert.ok(await page.isVisible('#v3-balance_by_network_address button[data-copy]'), 'the client script shows the copy buttons');
          await screenshot(page, 'reference', `docs-${width}-${colorScheme}`);
          assert.deepEqual(problems, []);
        } finally {
          await context.close();
        }
      }
    });
  }
});
