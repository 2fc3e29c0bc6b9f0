/**
 * Market data end to end, loopback only: seven fake exchanges serving their recorded formats → createMarket
 * (poller, adapters) → SQLite PriceStore → PriceReader (latest, at) and `price` events on the bus → v2 get_price
 * through the HTTP app and price_update to a real pusher-js subscriber on ticker_btc_usd.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { MemoryEventBus, PRICE_SOURCE_IDS, silentLogger, type PriceEvent, type PriceSourceId } from '../../src/core/index.js';
import { buildHttpApp } from '../../src/main/wiring/http-wiring.js';
import { createMarket, type Market } from '../../src/market/create-market.js';
import { attachRealtime, type RealtimeHandle } from '../../src/realtime/attach-realtime.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { FixtureExchange, startFakeExchange, type FakeExchange } from '../helpers/fake-exchange.js';
import { connected, pusherClient, Recorder, subscribed, type Pusher } from '../helpers/pusher-clients.js';
import { recordingLogger } from '../helpers/recording-logger.js';
import { waitFor } from '../helpers/regtest-node.js';

const KEY = 'market-e2e';
const MAX_AGE_S = 60;
const START = 1_800_000_000;
/** Pairs per exchange in the fixtures: every one must be recorded and announced once. */
const PAIRS = { binance: 7, bitfinex: 10, bitstamp: 7, coinbase: 10, gemini: 7, kraken: 9, okx: 6 } as const;
const TOTAL_PAIRS = Object.values(PAIRS).reduce((a, b) => a + b, 0);

type KrakenFixture = { result: Record<string, { c: string[] }> };
type BitstampFixture = Record<string, { last: string }>;

void describe('market prices end to end', () => {
  let dir: string;
  let store: SqliteStore;
  let clock = START;
  const bus = new MemoryEventBus();
  const events: PriceEvent[] = [];
  const fixtures = new Map<PriceSourceId, FixtureExchange>();
  const exchanges = new Map<PriceSourceId, FakeExchange>();
  const log = recordingLogger();
  let market: Market;
  let app: FastifyInstance;
  let http: Server;
  let realtime: RealtimeHandle;
  let pusher: Pusher;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'outpoint-market-'));
    store = new SqliteStore({ path: join(dir, 'store.db') });
    await store.migrate();
    bus.subscribe((e) => void (e.kind === 'price' && events.push(e)));
    const baseUrls: Partial<Record<PriceSourceId, string>> = {};
    for (const id of PRICE_SOURCE_IDS) {
      const fixture = new FixtureExchange(id);
      const server = await startFakeExchange(fixture.reply);
      fixtures.set(id, fixture);
      exchanges.set(id, server);
      baseUrls[id] = server.url;
    }
    market = createMarket(
      { sources: [...PRICE_SOURCE_IDS], intervalMs: 50, timeoutMs: 1000, maxAgeS: MAX_AGE_S, baseUrls },
      store.prices(), bus, log.logger, { now: () => clock, maxBackoffMs: 200 },
    );
    app = await buildHttpApp({
      networks: new Map(), prices: market.reader, broadcaster: { broadcast: () => Promise.reject(new Error('unused')) },
      publicUrl: 'https://outpoint.test', rateLimitPerSecond: 0, redisUrl: null, logger: silentLogger, shortLinks: store.shortAddresses(),
    });
    http = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    realtime = attachRealtime(http, { appKey: KEY, bus, networks: new Map(), logger: silentLogger });
    pusher = pusherClient((http.address() as AddressInfo).port, KEY);
    await connected(pusher);
    market.start();
  });

  after(async () => {
    await market.stop();
    pusher.disconnect();
    await realtime.close();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await app.close();
    for (const server of exchanges.values()) await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const kraken = (): KrakenFixture => fixtures.get('kraken')!.data as unknown as KrakenFixture;
  const bitstamp = (): BitstampFixture => fixtures.get('bitstamp')!.data as unknown as BitstampFixture;
  /** Waits until every exchange has been polled `n` more times than now. */
  const morePolls = async (n: number): Promise<void> => {
    const marks = [...exchanges].map(([id, s]) => [id, s.requests.length] as const);
    await waitFor(() => marks.every(([id, seen]) => exchanges.get(id)!.requests.length >= seen + n * (id === 'kraken' ? 0 : 1)), 10_000, 'more polls');
  };

  it('records every pair of every exchange once and publishes one price event each', async () => {
    await waitFor(() => events.length >= TOTAL_PAIRS, 10_000, 'first prices from all exchanges');
    await morePolls(3);
    assert.equal(events.length, TOTAL_PAIRS, 'unchanged prices make no further events');
    for (const [id, count] of Object.entries(PAIRS)) {
      const name = market.sources.find((s) => s.id === id)!.name;
      assert.equal(events.filter((e) => e.exchange === name).length, count, id);
    }
    assert.deepEqual(events.find((e) => e.exchange === 'bitfinex' && e.coin === 'DOGE' && e.base === 'BTC'),
      { kind: 'price', coin: 'DOGE', base: 'BTC', exchange: 'bitfinex', price: '0.00000242', time: START }, 'exponent JSON number kept exact');
  });

  it('PriceReader: latest per exchange and the median at a time', async () => {
    const latest = await market.reader.latest('BTC', 'USD');
    assert.deepEqual(latest.map((q) => `${q.exchange}:${q.price}`), ['bitfinex:67010', 'bitstamp:67010', 'coinbase:67012.34', 'gemini:67005.5', 'kraken:67012.3']);
    assert.deepEqual([...new Set((await market.reader.latest('DOGE')).map((q) => q.base))], ['BTC', 'EUR', 'GBP', 'USD', 'USDT']);
    assert.deepEqual(await market.reader.latest('DOGETEST'), [], 'test networks\' coins have no value');
    const at = await market.reader.at('BTC', 'USD', START);
    assert.equal(at?.price, '67010', 'median of 67005.5, 67010, 67010, 67012.3, 67012.34');
    assert.equal(await market.reader.at('BTC', 'USD', START - 1), null, 'nothing known before the first observation');
  });

  it('a price change makes exactly one event, on the bus and to a pusher-js ticker subscriber', async () => {
    const ticker = new Recorder<{ type: string; value: Record<string, unknown> }>(await subscribed(pusher, 'ticker_btc_usd'), 'price_update');
    const otherTicker = new Recorder(await subscribed(pusher, 'ticker_ltc_usd'), 'price_update');
    const before = events.length;
    clock = START + 10;
    bitstamp()['btcusd']!.last = '67200.00';
    const update = await ticker.next((e) => e.value.exchange === 'bitstamp');
    assert.deepEqual(update, { type: 'price', value: { time: START + 10, price: '67200.00000000', price_base: 'USD', symbol: 'BTC', exchange: 'bitstamp' } });
    await morePolls(2);
    assert.deepEqual(events.slice(before), [{ kind: 'price', coin: 'BTC', base: 'USD', exchange: 'bitstamp', price: '67200', time: START + 10 }]);
    assert.equal(ticker.events.length, 1);
    assert.equal(otherTicker.events.length, 0);
    assert.equal((await market.reader.at('BTC', 'USD', START + 5))?.price, '67010', 'history before the change');
    assert.equal((await market.reader.at('BTC', 'USD', START + 10))?.price, '67012.3', 'median after it');
  });

  it('v2 get_price serves the current prices; test network coins get an empty list', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v2/get_price/BTC/USD' });
    assert.equal(res.statusCode, 200);
    const body = JSON.parse(res.body) as { status: string; data: { network: string; prices: { price: string; price_base: string; exchange: string; time: number }[] } };
    assert.equal(body.status, 'success');
    assert.equal(body.data.network, 'BTC');
    assert.deepEqual(body.data.prices.map((p) => `${p.exchange}:${p.price}:${p.price_base}`),
      ['bitfinex:67010.00000000:USD', 'bitstamp:67200.00000000:USD', 'coinbase:67012.34000000:USD', 'gemini:67005.50000000:USD', 'kraken:67012.30000000:USD']);
    assert.ok(body.data.prices.every((p) => p.time === START + 10), 'time = when each price was last confirmed');
    const test = JSON.parse((await app.inject({ method: 'GET', url: '/api/v2/get_price/BTCTEST' })).body) as { data: { prices: unknown[] } };
    assert.deepEqual(test.data.prices, []);
  });

  it('a failing exchange goes stale after max age and is no longer served as current; it recovers', async () => {
    const krakenServer = exchanges.get('kraken')!;
    krakenServer.reply = () => ({ status: 500, body: 'maintenance' });
    const failedAt = krakenServer.requests.length;
    await waitFor(() => krakenServer.requests.length >= failedAt + 2, 10_000, 'kraken polled while failing');
    clock = START + 10 + MAX_AGE_S + 1;
    await morePolls(2);
    const names = (await market.reader.latest('BTC', 'USD')).map((q) => q.exchange);
    assert.deepEqual(names, ['bitfinex', 'bitstamp', 'coinbase', 'gemini'], 'Kraken stale');
    const served = JSON.parse((await app.inject({ method: 'GET', url: '/api/v2/get_price/BTC/USD' })).body) as { data: { prices: { exchange: string }[] } };
    assert.deepEqual(served.data.prices.map((p) => p.exchange), names, 'get_price keeps answering from the other exchanges');
    assert.equal((await market.reader.at('BTC', 'USD', clock))?.price, '67011.17', 'median without Kraken: (67010 + 67012.34) / 2');
    kraken().result['XXBTZUSD']!.c = ['67300.10000', '0.1'];
    krakenServer.reply = fixtures.get('kraken')!.reply;
    await waitFor(() => events.some((e) => e.exchange === 'kraken' && e.price === '67300.1'), 10_000, 'kraken back with a new price');
    assert.ok((await market.reader.latest('BTC', 'USD')).some((q) => q.exchange === 'kraken' && q.price === '67300.1'));
    const krakenLines = log.lines.filter((l) => l.fields?.['source'] === 'kraken').map((l) => `${l.level} ${l.message}`);
    assert.deepEqual(krakenLines.filter((l) => !/polling prices/.test(l)), [
      'warn market: price source failing; retrying with backoff, logged again when it recovers',
      'info market: price source recovered',
    ], 'one line when it starts failing and one when it recovers, however many polls failed');
  });
});
