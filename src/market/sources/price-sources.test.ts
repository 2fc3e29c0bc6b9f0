/**
 * Every adapter against recorded responses in its exchange's format, served over loopback HTTP: parsing,
 * exchange-specific error bodies, HTTP 429/500, malformed JSON and a server that never answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FixtureExchange, NOT_FOUND, startFakeExchange, type FakeExchange } from '../../../test/helpers/fake-exchange.js';
import { PRICE_SOURCE_IDS, type PriceSource, type PriceSourceId } from '../../core/domain/prices.js';
import { ExchangeError } from '../exchange-error.js';
import { createPriceSource } from './price-sources.js';

const T = 1_714_564_800;

/** What each fixture must parse to: "COIN/BASE=price", normalised (no trailing zeros, no exponent). */
const EXPECTED: Record<PriceSourceId, string[]> = {
  binance: ['BTC/USDT=67012.34', 'BTC/EUR=61870.01', 'LTC/USDT=84.12', 'LTC/BTC=0.001256', 'DOGE/USDT=0.16234', 'DOGE/EUR=0.1499', 'DOGE/BTC=0.00000242'],
  bitfinex: ['BTC/USD=67010', 'BTC/EUR=61867', 'BTC/GBP=53099', 'BTC/USDT=67030.5', 'LTC/USD=84.109', 'LTC/BTC=0.0012552', 'LTC/USDT=84.12',
    'DOGE/USD=0.16232', 'DOGE/BTC=0.00000242', 'DOGE/USDT=0.16236'],
  bitstamp: ['BTC/USD=67010', 'BTC/EUR=61868', 'BTC/GBP=53100', 'LTC/USD=84.1', 'LTC/EUR=77.65', 'LTC/GBP=66.69', 'LTC/BTC=0.001254'],
  coinbase: ['BTC/USD=67012.34', 'BTC/EUR=61870', 'BTC/GBP=53105.1', 'LTC/USD=84.13', 'LTC/EUR=77.68', 'LTC/GBP=66.7', 'LTC/BTC=0.00125',
    'DOGE/USD=0.16235', 'DOGE/EUR=0.1499', 'DOGE/GBP=0.1287'],
  gemini: ['BTC/USD=67005.5', 'BTC/EUR=61860', 'BTC/GBP=53090', 'LTC/USD=84.05', 'LTC/BTC=0.001254', 'DOGE/USD=0.1623', 'DOGE/BTC=0.00000241'],
  kraken: ['BTC/USD=67012.3', 'BTC/EUR=61869.9', 'BTC/GBP=53105', 'LTC/USD=84.12', 'LTC/EUR=77.67', 'LTC/BTC=0.001255', 'DOGE/USD=0.16234',
    'DOGE/EUR=0.1499', 'DOGE/BTC=0.00000242'],
  okx: ['BTC/USDT=67012.1', 'BTC/EUR=61871.3', 'LTC/USDT=84.11', 'LTC/BTC=0.001255', 'DOGE/USDT=0.16233', 'DOGE/BTC=0.00000242'],
};

const PER_PAIR = new Set<PriceSourceId>(['bitstamp', 'coinbase', 'gemini', 'okx']);

const signal = (ms = 2000): AbortSignal => AbortSignal.timeout(ms);
const isExchangeError = (pattern: RegExp, rateLimited = false) => (e: unknown): boolean =>
  e instanceof ExchangeError && pattern.test(e.message) && e.rateLimited === rateLimited;

for (const id of PRICE_SOURCE_IDS) {
  void describe(`${id} price source`, () => {
    let server: FakeExchange;
    let fixture: FixtureExchange;
    let source: PriceSource;

    before(async () => {
      fixture = new FixtureExchange(id);
      server = await startFakeExchange(fixture.reply);
      source = createPriceSource(id, { baseUrl: `${server.url}/`, now: () => T });
    });
    after(() => server.close());

    it('parses the recorded response into normalised quotes for every pair it covers', async () => {
      server.reply = fixture.reply;
      const quotes = await source.fetch(signal());
      assert.deepEqual(quotes.map((q) => `${q.coin}/${q.base}=${q.price}`), EXPECTED[id]);
      assert.ok(quotes.every((q) => q.exchange === source.name && q.time === T));
      // SoChain clients select an exchange by comparing lower-case names ("binance", "gemini", …).
      assert.equal(source.name, id, 'the exchange is named by its lower-case id');
      assert.deepEqual(quotes.map((q) => `${q.coin}/${q.base}`), source.pairs.map((p) => `${p.coin}/${p.base}`), 'pairs lists what it quotes');
    });

    it('rejects HTTP 429 as rate-limited, honouring Retry-After', async () => {
      server.reply = () => ({ status: 429, body: { message: 'Too many requests' }, headers: { 'retry-after': '7' } });
      await assert.rejects(source.fetch(signal()), (e: unknown) => isExchangeError(/HTTP 429/, true)(e) && (e as ExchangeError).retryAfterMs === 7000);
    });

    it('rejects HTTP 500', async () => {
      server.reply = () => ({ status: 500, body: '<html>Internal Server Error</html>' });
      await assert.rejects(source.fetch(signal()), isExchangeError(/HTTP 500.*Internal Server Error/));
    });

    it('rejects the exchange\'s own error body', async () => {
      const status = id === 'coinbase' ? 404 : id === 'gemini' || id === 'binance' ? 400 : 200;
      server.reply = () => ({ status, body: NOT_FOUND[id] });
      const pattern = {
        binance: /HTTP 400.*Invalid symbol/, bitfinex: /Bitfinex error 10020: symbol: invalid/, bitstamp: /Bitstamp btcusd: "Not Found"/,
        coinbase: /HTTP 404.*NotFound/, gemini: /HTTP 400.*InvalidSymbol/, kraken: /Kraken: EQuery:Unknown asset pair/, okx: /OKX BTC-USDT: error 51001/,
      }[id];
      await assert.rejects(source.fetch(signal()), isExchangeError(pattern));
    });

    it('rejects malformed JSON', async () => {
      server.reply = () => ({ body: '{"price": "67012.3", ' });
      await assert.rejects(source.fetch(signal()), isExchangeError(/malformed JSON/));
    });

    it('rejects an answer without any valid price', async () => {
      server.reply = () => ({ body: id === 'bitfinex' ? '[]' : id === 'binance' ? [{ symbol: 'BTCUSDT', price: '-1' }] : { price: 'NaN', last: 'NaN', result: {}, error: [], code: '0', data: [] } });
      await assert.rejects(source.fetch(signal()), isExchangeError(/no valid price|expected/));
    });

    it('gives up when the server never answers (the caller\'s signal aborts)', async () => {
      server.reply = () => 'hang';
      const started = Date.now();
      await assert.rejects(source.fetch(signal(150)), (e: unknown) => e instanceof Error && /abort|timeout/i.test(`${e.name} ${e.message}`));
      assert.ok(Date.now() - started < 1500);
    });

    if (PER_PAIR.has(id)) {
      it('keeps the other pairs when one pair is unknown, but fails when rate-limited anywhere', async () => {
        const missing = source.pairs[1]!;
        const isMissing = (url: URL): boolean => url.href.toLowerCase().replace(/[^a-z]/g, '').includes(`${missing.coin}${missing.base}`.toLowerCase());
        server.reply = (url) => (isMissing(url) ? { status: id === 'okx' || id === 'bitstamp' ? 200 : 404, body: NOT_FOUND[id] } : fixture.reply(url));
        const quotes = await source.fetch(signal());
        assert.deepEqual(quotes.map((q) => `${q.coin}/${q.base}=${q.price}`), EXPECTED[id].filter((_, i) => i !== 1));
        server.reply = (url) => (isMissing(url) ? { status: 429, body: {} } : fixture.reply(url));
        await assert.rejects(source.fetch(signal()), isExchangeError(/HTTP 429/, true));
      });
    }
  });
}
