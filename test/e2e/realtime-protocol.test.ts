/**
 * The realtime server's protocol rules as pusher-js and raw websocket clients meet them: client events, app keys,
 * protocol versions, ping/pong, subscription errors and limits, rate limits, activity timeouts, capacity and slow
 * consumers. No node: events come from the bus directly (the chain-driven events: realtime-pusher.test.ts).
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { MemoryEventBus } from '../../src/core/index.js';
import { errorCodes, RawClient, subscribed, type Pusher } from '../helpers/pusher-clients.js';
import { waitFor } from '../helpers/regtest-node.js';
import { KEY, RealtimeServers, type RealtimeServer } from './realtime-servers.js';

const bus = new MemoryEventBus();
const servers = new RealtimeServers(bus);
const client = (port: number, key?: string): Promise<Pusher> => servers.client(port, key);
const raw = (port: number, path?: string): RawClient => servers.raw(port, path);
let main: RealtimeServer;
let tight: RealtimeServer;

before(async () => {
  main = await servers.serve();
  tight = await servers.serve({ maxConnections: 2, activityTimeoutSec: 1, pongTimeoutMs: 400, maxSubscriptionsPerConnection: 2, maxBufferedBytes: 64 * 1024 });
});

after(async () => {
  await servers.close();
});

describe('realtime protocol rules against pusher-js and raw clients', () => {
  it('a client event is rejected with 4301', async () => {
    const pusher = await client(main.port);
    const codes = errorCodes(pusher);
    const channel = await subscribed(pusher, 'blockchain_update_ltctest');
    channel.trigger('client-hello', { hi: true });
    await waitFor(() => codes.includes(4301), 5000, 'pusher:error 4301');
    assert.equal(pusher.connection.state, 'connected', 'the connection stays open');
  });

  it('an unknown app key is refused with 4001 and pusher-js stops', async () => {
    const pusher = await client(main.port, 'not-the-key');
    const codes = errorCodes(pusher);
    await waitFor(() => codes.includes(4001), 10_000, 'error 4001');
    await waitFor(() => pusher.connection.state === 'disconnected', 5000, 'pusher-js gives up');
    const r = raw(main.port, '/app/not-the-key?protocol=7');
    assert.equal((await r.closed).code, 4001);
  });

  it('protocol versions: missing 4008, malformed 4006, unsupported 4007', async () => {
    const cases: [string, number][] = [
      [`/app/${KEY}`, 4008],
      [`/app/${KEY}?protocol=`, 4008],
      [`/app/${KEY}?protocol=seven`, 4006],
      [`/app/${KEY}?protocol=7.1`, 4006],
      [`/app/${KEY}?protocol=4`, 4007],
      [`/app/${KEY}?protocol=8`, 4007],
    ];
    for (const [path, code] of cases) {
      const r = raw(main.port, path);
      assert.equal(await r.errorCode(), code, path);
      assert.equal((await r.closed).code, code, path);
    }
    const ok = raw(main.port);
    const established = await ok.next((f) => f.event === 'pusher:connection_established');
    const data = JSON.parse(established.data as string) as { socket_id: string; activity_timeout: number };
    assert.match(data.socket_id, /^\d+\.\d+$/);
    assert.equal(data.activity_timeout, 120);
  });

  it('pusher:ping is answered with pusher:pong', async () => {
    const r = raw(main.port);
    await r.next((f) => f.event === 'pusher:connection_established');
    r.send({ event: 'pusher:ping', data: {} });
    await r.next((f) => f.event === 'pusher:pong');
  });

  it('subscribe errors: private/presence 4009, bad names 4300, subscription limit 4302, oversized 4303', async () => {
    const r = raw(tight.port);
    await r.next((f) => f.event === 'pusher:connection_established');
    r.answerPings = true;
    const expect = async (frame: unknown, code: number): Promise<void> => {
      const before = r.frames.length;
      r.send(frame);
      const error = await r.next((f) => r.frames.indexOf(f) >= before && f.event === 'pusher:error');
      assert.equal((error.data as { code: number }).code, code, JSON.stringify(frame).slice(0, 80));
    };
    const sub = (channel: string) => ({ event: 'pusher:subscribe', data: { channel } });
    await expect(sub('private-orders'), 4009);
    await expect(sub('presence-room'), 4009);
    await expect(sub('bad name'), 4300);
    await expect(sub('x'.repeat(165)), 4300);
    await expect(sub('blockchain_update_btc'), 4300); // a network this server does not index
    await expect(sub('address_ltctest_notanaddress'), 4300);
    await expect('not json', 4300);
    r.send(sub('blockchain_update_ltctest'));
    r.send(sub('ticker_btc_usd'));
    await r.next((f) => f.event === 'pusher_internal:subscription_succeeded' && f.channel === 'ticker_btc_usd');
    await expect(sub('ticker_doge_usd'), 4302);
    await expect({ event: 'pusher:ping', data: { pad: 'x'.repeat(11 * 1024) } }, 4303);
    r.close();
    await waitFor(() => tight.realtime.stats().connections === 0, 5000, 'tight server empty');
  });

  it('inbound messages beyond the rate limit get 4301', async () => {
    const r = raw(main.port);
    await r.next((f) => f.event === 'pusher:connection_established');
    for (let i = 0; i < 260; i++) r.send({ event: 'pusher:ping', data: {} });
    assert.equal(await r.errorCode(), 4301);
  });

  it('an idle client is pinged, then closed with 4201 when it does not answer; one that answers stays', async () => {
    const silent = raw(tight.port);
    const polite = raw(tight.port);
    polite.answerPings = true;
    const started = Date.now();
    await silent.next((f) => f.event === 'pusher:ping', 3000);
    const { code } = await silent.closed;
    assert.equal(code, 4201);
    assert.ok(Date.now() - started >= 1000, 'not before activity_timeout');
    await polite.next((f) => f.event === 'pusher:ping');
    await delay(1500);
    assert.equal(polite.ws.readyState, polite.ws.OPEN);
    polite.close();
    await waitFor(() => tight.realtime.stats().connections === 0, 5000, 'tight server empty');
  });

  it('pusher-js stays connected across activity timeouts', async () => {
    const pusher = await client(tight.port);
    const id = pusher.connection.socket_id;
    await delay(2500);
    assert.equal(pusher.connection.state, 'connected');
    assert.equal(pusher.connection.socket_id, id);
    pusher.disconnect();
    await waitFor(() => tight.realtime.stats().connections === 0, 5000, 'tight server empty');
  });

  it('over capacity: the connection beyond the limit is closed with 4100', async () => {
    await waitFor(() => tight.realtime.stats().connections === 0, 5000, 'tight server empty');
    const a = await client(tight.port);
    const b = await client(tight.port);
    const c = await servers.client(tight.port, KEY, false);
    const codes = errorCodes(c);
    await waitFor(() => codes.includes(4100), 10_000, 'error 4100');
    assert.notEqual(c.connection.state, 'connected');
    c.disconnect();
    a.disconnect();
    b.disconnect();
    await waitFor(() => tight.realtime.stats().connections === 0, 5000, 'tight server empty');
  });

  it('a slow consumer has its messages dropped and is closed with 4100, bounding server memory', async () => {
    const r = raw(tight.port);
    await r.next((f) => f.event === 'pusher:connection_established');
    r.send({ event: 'pusher:subscribe', data: { channel: 'ticker_btc_usd' } });
    await r.next((f) => f.event === 'pusher_internal:subscription_succeeded');
    r.ws.pause();
    const big = 'x'.repeat(100_000);
    const before = tight.realtime.stats();
    // Far more than the kernel's loopback buffers and maxBufferedBytes together.
    for (let i = 0; i < 400; i++) bus.publish({ kind: 'price', coin: 'BTC', base: 'USD', exchange: 'X', price: big, time: i });
    const after = tight.realtime.stats();
    assert.equal(after.slowConsumersClosed, before.slowConsumersClosed + 1);
    assert.ok(after.messagesDropped > before.messagesDropped);
    assert.ok(after.messagesSent - before.messagesSent < 400);
    r.ws.resume();
    assert.equal((await r.closed).code, 4100);
  });

  it('non-/app paths get HTTP 404', async () => {
    const r = RawClient.connect(main.port, '/elsewhere');
    const status = await new Promise<number>((resolve) => {
      r.ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      r.ws.on('error', () => resolve(-1));
    });
    assert.equal(status, 404);
  });
});

