/**
 * Cross-cutting v2 behaviour on a real (empty, migrated) SQLite store: JSONP, CORS over a real socket,
 * rate limits in process and shared through a real redis-server, and the OpenAPI document.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { getNetworkParams } from '../../src/chains/addressing.js';
import { noPrices, silentLogger, type NetworkId } from '../../src/core/index.js';
import { buildHttpApp, type HttpWiring } from '../../src/main/wiring/http-wiring.js';
import { freePort } from '../helpers/free-port.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { StoreEngines, type TestStore } from '../helpers/store-engines.js';

const params = getNetworkParams('LTCTEST', 'regtest');
let engines: StoreEngines;
let test: TestStore;
let redis: RedisServer;
let redisUrl: string;
const apps: FastifyInstance[] = [];

async function app(extra: Partial<HttpWiring> = {}): Promise<FastifyInstance> {
  const created = await buildHttpApp({
    networks: new Map<NetworkId, { params: typeof params; reader: ReturnType<typeof test.store.network> }>([['LTCTEST', { params, reader: test.store.network('LTCTEST') }]]),
    prices: noPrices,
    broadcaster: { broadcast: () => Promise.reject(new Error('not used')) },
    publicUrl: 'https://outpoint.test',
    rateLimitPerSecond: 0,
    redisUrl: null,
    logger: silentLogger,
    shortLinks: test.store.shortAddresses(),
    ...extra,
  });
  apps.push(created);
  return created;
}

before(async () => {
  engines = new StoreEngines();
  test = await engines.create('sqlite');
  redis = await startRedis();
  redisUrl = redis.url;
});

after(async () => {
  for (const a of apps) await a.close();
  await redis?.stop();
  await engines?.close();
});

describe('JSONP and CORS', () => {
  it('wraps answers for a valid callback, ignores an invalid one', async () => {
    const a = await app();
    const ok = await a.inject('/api/v2/get_info/LTCTEST?callback=jQuery_12.done');
    assert.equal(ok.statusCode, 200);
    assert.match(String(ok.headers['content-type']), /^application\/javascript/);
    assert.match(ok.body, /^\/\*\*\/jQuery_12\.done\(\{"status":"success".*\}\);$/);
    const fail = await a.inject('/api/v2/get_tx/LTCTEST/zz?callback=cb');
    assert.equal(fail.statusCode, 404);
    assert.match(fail.body, /^\/\*\*\/cb\(\{"status":"fail"/);
    for (const bad of ['alert(1)', '1abc', 'a'.repeat(80), '']) {
      const r = await a.inject(`/api/v2/get_info/LTCTEST?callback=${encodeURIComponent(bad)}`);
      assert.match(String(r.headers['content-type']), /^application\/json/, bad);
      assert.equal(JSON.parse(r.body).status, 'success');
    }
  });

  it('serves any origin over a real socket, answers preflight', async () => {
    const a = await app();
    const address = await a.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${address}/api/v2/get_info/LTCTEST`, { headers: { origin: 'https://elsewhere.example' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const body = (await res.json()) as { status: string; data: { acronym: string } };
    assert.equal(body.data.acronym, 'LTCTEST');
    const pre = await fetch(`${address}/api/v2/send_tx/LTCTEST`, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get('access-control-allow-origin'), '*');
    assert.match(pre.headers.get('access-control-allow-methods') ?? '', /POST/);
    const missing = await fetch(`${address}/nowhere`);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { status: string }).status, 'fail');
  });
});

describe('rate limit', () => {
  const url = '/api/v2/get_info/LTCTEST';

  it('allows N per second per IP with RateLimit headers, then 429 with Retry-After', async () => {
    const a = await app({ rateLimitPerSecond: 3 });
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await a.inject({ url, remoteAddress: '10.0.0.1' }));
    assert.deepEqual(replies.map((r) => r.statusCode), [200, 200, 200, 429, 429]);
    assert.deepEqual(replies.map((r) => r.headers['ratelimit-remaining']), ['2', '1', '0', '0', '0']);
    assert.equal(replies[0]!.headers['ratelimit-limit'], '3');
    assert.equal(replies[0]!.headers['ratelimit-reset'], '1');
    assert.equal(replies[3]!.headers['retry-after'], '1');
    const body = JSON.parse(replies[3]!.body);
    assert.equal(body.status, 'fail');
    assert.equal(typeof body.data.rate_limit, 'string');
    assert.equal((await a.inject({ url, remoteAddress: '10.0.0.2' })).statusCode, 200, 'another client is not affected');
    await delay(1_100);
    assert.equal((await a.inject({ url, remoteAddress: '10.0.0.1' })).statusCode, 200, 'the next window allows again');
  });

  it('0 turns the limit off', async () => {
    const a = await app({ rateLimitPerSecond: 0 });
    for (let i = 0; i < 20; i++) assert.equal((await a.inject(url)).statusCode, 200);
    assert.equal((await a.inject(url)).headers['ratelimit-limit'], undefined);
  });

  it('with Redis the count is shared by every API process', async () => {
    const one = await app({ rateLimitPerSecond: 4, redisUrl });
    const two = await app({ rateLimitPerSecond: 4, redisUrl });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await one.inject({ url, remoteAddress: '10.0.0.9' })).statusCode);
      statuses.push((await two.inject({ url, remoteAddress: '10.0.0.9' })).statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
    const limited = await two.inject({ url, remoteAddress: '10.0.0.9' });
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    await delay(1_100);
    assert.equal((await one.inject({ url, remoteAddress: '10.0.0.9' })).statusCode, 200);
  });

  it('an unreachable Redis lets requests through instead of failing them', async () => {
    const a = await app({ rateLimitPerSecond: 1, redisUrl: `redis://127.0.0.1:${await freePort()}` });
    for (let i = 0; i < 3; i++) assert.equal((await a.inject(url)).statusCode, 200);
  });
});

describe('OpenAPI', () => {
  it('documents every v2 endpoint from the route schemas', async () => {
    const a = await app();
    const r = await a.inject('/api/v2/openapi.json');
    assert.equal(r.statusCode, 200);
    const doc = JSON.parse(r.body) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    assert.equal(doc.openapi, '3.1.0');
    const expected = [
      '/api/v2/get_address_balance/{network}/{address}/{confirmations}', '/api/v2/get_address_balance/{network}/{address}',
      '/api/v2/get_address_received/{network}/{address}', '/api/v2/get_address_spent/{network}/{address}',
      '/api/v2/get_tx_unspent/{network}/{address}/{after_tx}', '/api/v2/get_tx_received/{network}/{address}', '/api/v2/get_tx_spent/{network}/{address}',
      '/api/v2/is_address_valid/{network}/{address}', '/api/v2/address/{network}/{address}', '/api/v2/short/{network}/{address}',
      '/api/v2/get_confidence/{network}/{txid}', '/api/v2/get_tx_inputs/{network}/{txid}/{input_no}', '/api/v2/get_tx_outputs/{network}/{txid}',
      '/api/v2/get_tx/{network}/{txid}', '/api/v2/is_tx_confirmed/{network}/{txid}', '/api/v2/is_tx_spent/{network}/{txid}/{output_no}',
      '/api/v2/tx/{network}/{txid}', '/api/v2/send_tx/{network}', '/api/v2/get_blockhash/{network}/{block_no}', '/api/v2/get_block/{network}/{blockid}',
      '/api/v2/block/{network}/{blockid}', '/api/v2/get_price', '/api/v2/get_price/{coin}/{base_currency}', '/api/v2/get_info', '/api/v2/get_info/{network}',
    ];
    for (const path of expected) assert.ok(doc.paths[path], `missing ${path}`);
    assert.ok(doc.paths['/api/v2/send_tx/{network}']!.post);
    assert.ok(doc.paths['/api/v2/get_tx/{network}/{txid}']!.get);
  });
});

describe('a path that leaves out a segment', () => {
  it('answers the operation\'s own error shape, naming the missing key', async () => {
    const a = await app();
    const txid = 'ab'.repeat(32);
    const shapeA: [string, string, string[]][] = [
      ['/api/v2/get_address_balance/LTC', 'address', ['network', 'address', 'confirmations']],
      ['/api/v2/get_address_balance/LTCTEST/', 'address', ['network', 'address', 'confirmations']],
      ['/api/v2/get_tx/BTC', 'txid', ['network', 'txid']],
      ['/api/v2/get_tx', 'network', ['network', 'txid']],
      ['/api/v2/get_tx_unspent/LTCTEST', 'address', ['network', 'address', 'after_tx']],
      ['/api/v2/is_tx_spent/LTCTEST/' + txid, 'output_no', ['network', 'txid', 'output_no']],
      ['/api/v2/get_tx_outputs/LTCTEST', 'txid', ['network', 'txid', 'output_no']],
      ['/api/v2/get_blockhash/LTCTEST', 'block_no', ['network', 'block_no']],
      ['/api/v2/get_block/LTCTEST', 'blockid', ['network', 'blockid']],
      ['/api/v2/get_confidence/LTCTEST', 'txid', ['network', 'txid']],
    ];
    for (const [url, key, keys] of shapeA) {
      const r = await a.inject(url);
      assert.equal(r.statusCode, 404, url);
      const body = JSON.parse(r.body) as { status: string; data: Record<string, string> };
      assert.equal(body.status, 'fail', url);
      assert.deepEqual(Object.keys(body.data), keys, url);
      assert.match(body.data[key]!, new RegExp(`^${key} is missing from the path \\(/api/v2/`), url);
    }
    const post = await a.inject({ method: 'POST', url: '/api/v2/send_tx', payload: { tx_hex: '00' } });
    assert.equal(post.statusCode, 404);
    assert.deepEqual(Object.keys(JSON.parse(post.body).data), ['network', 'tx_hex']);
    assert.match(JSON.parse(post.body).data.network, /network is missing/);
    const display = await a.inject('/api/v2/address/LTCTEST');
    assert.deepEqual([display.statusCode, JSON.parse(display.body)], [404, { status: 'fail', code: 404, message: 'address is missing from the path (/api/v2/address/{network}/{address})' }]);
    const short = await a.inject('/api/v2/short/LTCTEST');
    assert.equal(short.statusCode, 400, 'short answers its shape B with HTTP 400');
    assert.equal(JSON.parse(short.body).code, 404);
    const jsonp = await a.inject('/api/v2/get_tx/LTCTEST?callback=cb');
    assert.match(jsonp.body, /^\/\*\*\/cb\(\{"status":"fail","data":\{"network":.*"txid":"txid is missing/);
    for (const url of ['/api/v2/no_such_thing/LTC', '/api/v2', '/api/v2x/get_tx/LTC']) {
      const r = await a.inject(url);
      assert.equal(r.statusCode, 404, url);
      assert.match(JSON.parse(r.body).data.path, /^no endpoint/, url);
    }
  });
});

describe('garbage input', () => {
  it('no path segment, body or query makes a v2 route answer 5xx', async () => {
    const a = await app();
    const routes = [
      'get_address_balance/LTCTEST/$/$', 'get_address_received/$/$', 'get_address_spent/LTCTEST/$', 'get_tx_unspent/LTCTEST/$/$',
      'get_tx_received/$/$/$', 'get_tx_spent/LTCTEST/$/$', 'is_address_valid/LTCTEST/$', 'address/LTCTEST/$', 'short/LTCTEST/$',
      'get_confidence/LTCTEST/$', 'get_tx_inputs/LTCTEST/$/$', 'get_tx_outputs/$/$/$', 'get_tx/LTCTEST/$', 'is_tx_confirmed/LTCTEST/$',
      'is_tx_spent/LTCTEST/$/$', 'tx/LTCTEST/$', 'get_blockhash/LTCTEST/$', 'get_block/LTCTEST/$', 'block/$/$', 'get_price/$/$', 'get_info/$',
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), fc.array(fc.string({ unit: 'binary', maxLength: 120 }), { minLength: 3, maxLength: 3 }), async (route, parts) => {
        let i = 0;
        const url = `/api/v2/${route.replace(/\$/g, () => encodeURIComponent(parts[i++] || 'x'))}`;
        const r = await a.inject(url);
        assert.ok(r.statusCode < 500, `${url} -> ${r.statusCode} ${r.body}`);
        assert.equal(JSON.parse(r.body).status === 'fail' || r.statusCode === 200, true);
      }),
      { numRuns: 400 },
    );
    for (const payload of ['', 'tx_hex=', '\u0000', '{"tx_hex":[1]}', '{"tx_hex":{"a":1}}', 'x'.repeat(10_000)]) {
      for (const type of ['application/json', 'application/x-www-form-urlencoded', 'text/plain']) {
        const r = await a.inject({ method: 'POST', url: '/api/v2/send_tx/LTCTEST', payload, headers: { 'content-type': type } });
        assert.equal(r.statusCode, 404, `${type} ${payload.slice(0, 20)} -> ${r.statusCode} ${r.body}`);
        assert.deepEqual(Object.keys(JSON.parse(r.body).data).sort(), ['network', 'tx_hex']);
      }
    }
  });
});
