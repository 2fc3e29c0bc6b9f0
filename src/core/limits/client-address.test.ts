import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { seededRandom } from '../../../test/helpers/seeded-random.js';
import { clientAddress, compileTrust, type TrustProxy } from './client-address.js';

/** What Fastify's request.ip and clientAddress() say for one request from 127.0.0.1 with this X-Forwarded-For. */
async function both(setting: TrustProxy, forwardedFor: string | null): Promise<{ fastify: string; ours: string }> {
  const trust = compileTrust(setting);
  const app = Fastify({ trustProxy: trust ?? false });
  app.get('/', async (request) => ({ fastify: request.ip, ours: clientAddress(request.raw, trust) }));
  try {
    const reply = await app.inject({ url: '/', headers: forwardedFor === null ? {} : { 'x-forwarded-for': forwardedFor } });
    return reply.json();
  } finally {
    await app.close();
  }
}

test('the settings: nothing trusted, every hop, a hop count, a list of proxies', async () => {
  const xff = '198.51.100.1, 10.0.0.5';
  const cases: [TrustProxy, string][] = [
    [false, '127.0.0.1'],
    [0, '127.0.0.1'],
    [[], '127.0.0.1'],
    [true, '198.51.100.1'],
    [1, '10.0.0.5'],
    [2, '198.51.100.1'],
    [9, '198.51.100.1'],
    [['127.0.0.1'], '10.0.0.5'],
    [['loopback', '10.0.0.0/8'], '198.51.100.1'],
    [['10.0.0.0/8'], '127.0.0.1'],
  ];
  for (const [setting, expected] of cases) {
    const { fastify, ours } = await both(setting, xff);
    assert.equal(ours, expected, JSON.stringify(setting));
    assert.equal(fastify, ours, `${JSON.stringify(setting)}: Fastify's request.ip agrees`);
  }
  assert.equal((await both(['127.0.0.1'], null)).ours, '127.0.0.1', 'no header: the peer');
});

test('list entries that are no address or range are refused', () => {
  for (const bad of ['10.0.0.0/33', 'proxy.example', '300.1.1.1', '']) assert.throws(() => compileTrust([bad]), TypeError, bad);
});

test('seeded: for random settings and forwarded chains, clientAddress is exactly request.ip', async () => {
  const random = seededRandom(27);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const addresses = ['198.51.100.1', '10.0.0.5', '10.1.2.3', '127.0.0.1', '::1', '2001:db8::7', 'fe80::1', '192.168.1.1', 'not-an-ip', '', ' 203.0.113.9 '];
  const settings: TrustProxy[] = [false, true, 1, 2, 3, ['127.0.0.1'], ['loopback'], ['loopback', 'uniquelocal'], ['127.0.0.1', '10.0.0.0/16'], ['::1', '127.0.0.0/8']];
  for (let i = 0; i < 200; i++) {
    const chain = Array.from({ length: Math.floor(random() * 5) }, () => pick(addresses)).join(pick([', ', ',', ' , ']));
    const setting = pick(settings);
    const { fastify, ours } = await both(setting, chain === '' ? null : chain);
    assert.equal(ours, fastify, `${JSON.stringify(setting)} with X-Forwarded-For "${chain}"`);
  }
});
