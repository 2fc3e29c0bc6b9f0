/**
 * Requests in flight at once: per account by the v3 plan's max_concurrent_requests (one API process, and two
 * sharing a real redis-server), per client IP for v2 with `maxConcurrentPerIp`. Requests are held inside the
 * store read by a gate the test opens, so "in flight" is exact, not a race against the clock.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { NetworkReader } from '../../src/core/index.js';
import { RedisConcurrencyLimiter } from '../../src/redis/redis-concurrency-limiter.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { freePort } from '../helpers/free-port.js';
import { recordingLogger } from '../helpers/recording-logger.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/regtest-node.js';
import type { Reply } from './v2-fixture.js';
import { call, sameAccountIn, v3App } from './v3-fixture.js';

const ADDRESS = 'rltc1qn3txcndrfs9gphvgvh6pss5z2h282tenlwk6tr';
const BALANCE_V3 = `/api/v3/balance/LTCTEST/${ADDRESS}`;
const BALANCE_V2 = `/api/v2/get_address_balance/LTCTEST/${ADDRESS}`;
let dir: string;
let store: SqliteStore;
let redis: RedisServer;
const apps: FastifyInstance[] = [];

/** Address reads wait until the gate opens; `waiting` counts the requests held there. */
const gate = {
  waiting: 0,
  open: (): void => undefined,
  promise: Promise.resolve(),
  close(): void {
    this.promise = new Promise((resolve) => (this.open = resolve));
  },
};

function gated(reader: NetworkReader): NetworkReader {
  return new Proxy(reader, {
    get(target, prop, receiver) {
      if (prop === 'getAddressTotals') {
        return async (...args: Parameters<NetworkReader['getAddressTotals']>) => {
          gate.waiting++;
          await gate.promise;
          gate.waiting--;
          return target.getAddressTotals(...args);
        };
      }
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function app(redisUrl: string | null = null, maxConcurrentPerIp = 0, trustProxy: readonly string[] = []): Promise<FastifyInstance> {
  const created = await v3App(null, gated(store.network('LTCTEST')), store.accounts(), { redisUrl, maxConcurrentPerIp, trustProxy });
  apps.push(created);
  return created;
}

/** Starts `n` requests that will wait at the gate, and resolves once all are held there. */
async function hold(n: number, start: () => Promise<Reply>): Promise<Promise<Reply>[]> {
  const before = gate.waiting;
  const held = Array.from({ length: n }, start);
  await waitFor(() => gate.waiting === before + n, 10_000, `${n} requests held at the gate`);
  return held;
}

/** A refusal comes at once: without the limit the request would wait at the gate, so say that instead of hanging. */
function atOnce<T>(answer: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not refused, held like the others`)), 5_000)));
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'outpoint-concurrency-'));
  store = new SqliteStore({ path: join(dir, 'store.db') });
  await store.migrate();
  // An empty index without a status is an initial sync (503 before any read): this one is a caught-up, empty chain.
  await store.network('LTCTEST').setSyncStatus({ phase: 'ready', height: null, targetHeight: null, etaSeconds: 0, updatedAt: Math.floor(Date.now() / 1000) });
  redis = await startRedis();
});

after(async () => {
  gate.open();
  for (const a of apps) await a.close();
  await store?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('v3: the plan\'s max_concurrent_requests per account', () => {
  it('one request over the limit answers 429 with the v3 body; account_info and other accounts are not held up; slots come back', async () => {
    const a = await app();
    await store.accounts().setPlan('two', 1000, 1, 2);
    const { key } = await sameAccountIn([store.accounts()], 'two@x.io', 'two', 1000);
    const { key: other } = await sameAccountIn([store.accounts()], 'other@x.io', 'two', 1000);
    gate.close();
    const held = await hold(2, () => call(a, BALANCE_V3, key));
    const refused = await atOnce(call(a, BALANCE_V3, key), 'a third request');
    assert.equal(refused.status, 429);
    assert.match(String(refused.headers['content-type']), /^application\/json/);
    assert.deepEqual(refused.body, { status: 'fail', data: { error_message: 'too many concurrent requests: the plan allows 2 at once; retry when one has finished' } });
    assert.equal(refused.headers['retry-after'], '1');
    const info = await call(a, '/api/v3/account_info', key);
    assert.equal(info.status, 200, 'account_info is free: a refused client can see why');
    assert.equal(info.body.data.plan.max_concurrent_requests, 2);
    assert.equal((await call(a, '/api/v3/is_valid_address/LTCTEST/x', other)).status, 200, 'the limit is per account');
    gate.open();
    assert.deepEqual((await Promise.all(held)).map((r) => r.status), [200, 200]);
    gate.close();
    const again = await hold(2, () => call(a, BALANCE_V3, key));
    gate.open();
    assert.deepEqual((await Promise.all(again)).map((r) => r.status), [200, 200], 'both slots were given back');
  });

  it('a plan without a limit (0) holds any number at once', async () => {
    const a = await app();
    const { key } = await sameAccountIn([store.accounts()], 'free@x.io', 'unlimited', 1000);
    gate.close();
    const held = await hold(6, () => call(a, BALANCE_V3, key));
    gate.open();
    assert.deepEqual((await Promise.all(held)).map((r) => r.status), [200, 200, 200, 200, 200, 200]);
  });

  it('is enforced across API processes through Redis', async () => {
    const [first, second] = [await app(redis.url), await app(redis.url)];
    await store.accounts().setPlan('two-shared', 1000, 1, 2);
    const { key } = await sameAccountIn([store.accounts()], 'shared@x.io', 'two-shared', 1000);
    gate.close();
    const held = [...(await hold(1, () => call(first!, BALANCE_V3, key))), ...(await hold(1, () => call(second!, BALANCE_V3, key)))];
    assert.equal((await atOnce(call(first!, BALANCE_V3, key), 'over the limit')).status, 429);
    assert.equal((await atOnce(call(second!, BALANCE_V3, key), 'over the limit')).status, 429, 'the other process counts the first one\'s requests');
    gate.open();
    assert.deepEqual((await Promise.all(held)).map((r) => r.status), [200, 200]);
    assert.equal((await call(second!, BALANCE_V3, key)).status, 200);
  });

  it('a client that goes away gives its slot back', async () => {
    const a = await app();
    await store.accounts().setPlan('one', 1000, 1, 1);
    const { key } = await sameAccountIn([store.accounts()], 'one@x.io', 'one', 1000);
    await a.listen({ host: '127.0.0.1', port: await freePort() });
    const { port } = a.server.address() as AddressInfo;
    gate.close();
    const before = gate.waiting;
    const req = request({ host: '127.0.0.1', port, path: BALANCE_V3, headers: { 'api-key': key } });
    req.on('error', () => undefined);
    req.end();
    await waitFor(() => gate.waiting === before + 1, 10_000, 'the request held');
    assert.equal((await atOnce(call(a, BALANCE_V3, key), 'a second request')).status, 429);
    req.destroy();
    await waitFor(async () => (await call(a, '/api/v3/is_valid_address/LTCTEST/x', key)).status === 200, 5_000, 'the slot back');
    gate.open();
  });

  it('with Redis unreachable each process limits on its own, and says so once', async () => {
    const { logger, lines } = recordingLogger();
    const limiter = new RedisConcurrencyLimiter(`redis://127.0.0.1:${await freePort()}`, logger);
    const first = await limiter.acquire('account:1', 1);
    assert.ok(first, 'not refused because Redis is down');
    assert.equal(await limiter.acquire('account:1', 1), null, 'the local count still limits');
    first();
    assert.ok(await limiter.acquire('account:1', 1));
    assert.equal(lines.filter((l) => /concurrency slots in Redis unavailable/.test(l.message)).length, 1);
    await limiter.close();
  });
});

describe('v2: max_concurrent_per_ip', () => {
  it('refuses a client IP over the limit with 429 and the v2 body; other IPs and the default (off) are not limited', async () => {
    const limited = await app(null, 1);
    gate.close();
    const held = await hold(1, () => limited.inject(BALANCE_V2).then((r) => ({ status: r.statusCode, headers: r.headers, body: JSON.parse(r.body) as unknown })));
    const refused = await atOnce(limited.inject(BALANCE_V2), 'a second request from the IP');
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '1');
    assert.deepEqual(JSON.parse(refused.body), { status: 'fail', data: { concurrent_requests: 'Too many concurrent requests: at most 1 at once per client. Retry when one has finished.' } });
    const elsewhere = limited.inject({ url: BALANCE_V2, remoteAddress: '10.0.0.2' });
    await waitFor(() => gate.waiting === 2, 10_000, 'another IP\'s request admitted');
    gate.open();
    assert.equal((await held[0]!).status, 200);
    assert.equal((await elsewhere).statusCode, 200);

    const open = await app();
    gate.close();
    const many = await hold(5, () => open.inject(BALANCE_V2).then((r) => ({ status: r.statusCode, headers: r.headers, body: r.body })));
    gate.open();
    assert.deepEqual((await Promise.all(many)).map((r) => r.status), [200, 200, 200, 200, 200], 'default 0: no limit');
  });

  it('behind a trusted proxy the client is its X-Forwarded-For address; without trust_proxy the header changes nothing', async () => {
    const from = (a: FastifyInstance, client: string) => a.inject({ url: BALANCE_V2, headers: { 'x-forwarded-for': client } });
    const proxied = await app(null, 1, ['127.0.0.1']);
    gate.close();
    const held = await hold(1, () => from(proxied, '203.0.113.1').then((r) => ({ status: r.statusCode, headers: r.headers, body: r.body })));
    assert.equal((await atOnce(from(proxied, '203.0.113.1'), 'the same client again')).statusCode, 429, 'one client behind the proxy');
    const other = from(proxied, '203.0.113.2');
    await waitFor(() => gate.waiting === 2, 10_000, 'another client behind the same proxy admitted');
    const direct = await app(null, 1);
    const first = from(direct, '203.0.113.3');
    await waitFor(() => gate.waiting === 3, 10_000, 'the first request without trust held');
    assert.equal((await atOnce(from(direct, '203.0.113.4'), 'another X-Forwarded-For, no trust')).statusCode, 429, 'the header is ignored: same peer, same client');
    gate.open();
    assert.deepEqual([(await held[0]!).status, (await other).statusCode, (await first).statusCode], [200, 200, 200]);
  });
});
