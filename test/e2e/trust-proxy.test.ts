/**
 * Issue 27, point 2, on the real process: `[http] trust_proxy`. Pairs of `outpoint serve` processes with the same
 * tight per-address limits (v2 rate, web pages and realtime connections; sign-in failures, apart, since the page
 * limit counts the sign-in form too); one of each pair trusts loopback as its proxy, the other trusts nothing. Behind the trusted proxy each X-Forwarded-For address is its own client; without trust
 * the header is ignored (a client cannot pick an address to escape its limit). The v2 concurrency limit keys on the
 * same request.ip: concurrency-limits.test.ts. The rule itself (hop counts, lists): src/core/client-address.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { RawClient } from '../helpers/pusher-clients.js';
import { startServeWithBody, type ServeProcess } from '../helpers/serve-process.js';

const LIMITS = `[market]
sources = []
[web]
rate_limit_per_second = 1
[realtime]
max_connections_per_ip = 2`;
const SIGN_IN_LIMITS = `[market]
sources = []
[web]
rate_limit_per_second = 0
[accounts]
registration = "open"
signin_failures_per_ip = 2
signin_failures_per_account = 1000`;

let trusted: ServeProcess;
let direct: ServeProcess;
let trustedSignIn: ServeProcess;
let directSignIn: ServeProcess;
const clients: RawClient[] = [];

before(async () => {
  const trust = { trust_proxy: '["127.0.0.1"]' };
  [trusted, direct, trustedSignIn, directSignIn] = await Promise.all([
    startServeWithBody(LIMITS, { readyPath: '/health', http: { rate_limit_per_second: '1', ...trust } }),
    startServeWithBody(LIMITS, { readyPath: '/health', http: { rate_limit_per_second: '1' } }),
    startServeWithBody(SIGN_IN_LIMITS, { readyPath: '/health', http: trust }),
    startServeWithBody(SIGN_IN_LIMITS, { readyPath: '/health' }),
  ]);
});

after(async () => {
  for (const client of clients) client.close();
  await Promise.all([trusted?.stop(), direct?.stop(), trustedSignIn?.stop(), directSignIn?.stop()]);
});

const from = (client: string): Record<string, string> => ({ 'x-forwarded-for': client });

/** Statuses of `n` requests sent at once, the i-th as X-Forwarded-For `client(i)`. */
async function burst(serve: ServeProcess, path: string, n: number, client: (i: number) => string): Promise<number[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => fetch(`${serve.url}${path}`, { headers: from(client(i)) }).then(async (r) => (await r.arrayBuffer(), r.status))));
}

/**
 * One-second windows at 1 per second: five requests within a second touch at most two windows, so at most two pass.
 * Distinct clients each open their own window: none is refused.
 */
async function limitKeysOnClient(path: string): Promise<void> {
  const base = Math.floor(Math.random() * 200);
  const distinct = await burst(trusted, path, 5, (i) => `203.0.113.${base + i}`);
  assert.ok(!distinct.includes(429), `${path}: each forwarded address is its own client behind the trusted proxy: ${distinct}`);
  const same = await burst(trusted, path, 5, () => `198.51.100.${base}`);
  assert.ok(same.filter((s) => s === 429).length >= 3, `${path}: one forwarded client is limited: ${same}`);
  const spoofed = await burst(direct, path, 5, (i) => `192.0.2.${base + i}`);
  assert.ok(spoofed.filter((s) => s === 429).length >= 3, `${path}: without trust_proxy the header is ignored: ${spoofed}`);
}

async function connect(serve: ServeProcess, client: string): Promise<RawClient> {
  const raw = new RawClient(new WebSocket(`ws://127.0.0.1:${serve.port}/app/outpoint?protocol=7`, { headers: from(client) }));
  clients.push(raw);
  await raw.next((f) => f.event === 'pusher:connection_established' || f.event === 'pusher:error');
  return raw;
}

const refusedWith = (raw: RawClient): number | null => {
  const error = raw.frames.find((f) => f.event === 'pusher:error');
  return error ? (error.data as { code: number }).code : null;
};

/** A sign-in attempt with a fresh CSRF cookie and token, from `client`: the status of the answer. */
async function signIn(serve: ServeProcess, client: string, email: string): Promise<number> {
  const page = await fetch(`${serve.url}/dashboard/sign-in`, { headers: from(client) });
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const answer = await fetch(`${serve.url}/dashboard/sign-in`, {
    method: 'POST', redirect: 'manual',
    headers: { ...from(client), cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, email, password: 'not the password 1', next: '/dashboard' }).toString(),
  });
  await answer.arrayBuffer();
  return answer.status;
}

describe('[http] trust_proxy: every per-address limit keys on the forwarded client, and only behind a trusted proxy', () => {
  it('the v2 rate limit', async () => {
    await limitKeysOnClient('/api/v2/get_info/LTC');
  });

  it('the web page limit', async () => {
    // The page limit counts apart from v2: the burst above left it untouched.
    await limitKeysOnClient('/');
  });

  it('the realtime connections per address', async () => {
    const behind = [await connect(trusted, '203.0.113.7'), await connect(trusted, '203.0.113.8'), await connect(trusted, '203.0.113.9')];
    assert.deepEqual(behind.map(refusedWith), [null, null, null], 'three clients behind one proxy, two allowed each');
    const third = [await connect(trusted, '198.51.100.7'), await connect(trusted, '198.51.100.7'), await connect(trusted, '198.51.100.7')];
    assert.deepEqual(third.map(refusedWith), [null, null, 4100], 'the third connection of one forwarded client: over capacity');
    assert.equal((await third[2]!.closed).code, 4100);
    const spoofed = [await connect(direct, '192.0.2.7'), await connect(direct, '192.0.2.8'), await connect(direct, '192.0.2.9')];
    assert.deepEqual(spoofed.map(refusedWith), [null, null, 4100], 'without trust_proxy the three are one client');
    for (const raw of [...behind, ...third, ...spoofed]) raw.close();
  });

  it('the sign-in failures per address', async () => {
    assert.equal(await signIn(trustedSignIn, '203.0.113.20', 'a1@example.com'), 401);
    assert.equal(await signIn(trustedSignIn, '203.0.113.20', 'a2@example.com'), 401);
    assert.equal(await signIn(trustedSignIn, '203.0.113.20', 'a3@example.com'), 429, 'the forwarded client is limited');
    assert.equal(await signIn(trustedSignIn, '203.0.113.21', 'b1@example.com'), 401, 'another client behind the same proxy is not');
    assert.equal(await signIn(directSignIn, '192.0.2.20', 'c1@example.com'), 401);
    assert.equal(await signIn(directSignIn, '192.0.2.21', 'c2@example.com'), 401);
    assert.equal(await signIn(directSignIn, '192.0.2.22', 'c3@example.com'), 429, 'without trust_proxy a new X-Forwarded-For does not help');
  });
});
