import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PriceQuote } from '../core/domain/prices.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { StoredPriceReader } from './stored-price-reader.js';

const T = 1_700_000_000;
const q = (exchange: string, price: string, time: number, coin = 'BTC', base = 'USD'): PriceQuote => ({ coin, base, exchange, price, time });

void describe('stored price reader', () => {
  let store: SqliteStore;
  let now = T;
  let reader: StoredPriceReader;

  before(async () => {
    store = new SqliteStore({ path: ':memory:' });
    await store.migrate();
    reader = new StoredPriceReader(store.prices(), { maxAgeS: 300, now: () => now });
    const prices = store.prices();
    for (const quote of [
      q('Kraken', '100', T - 1000), q('Kraken', '110', T - 500),
      q('Bitstamp', '104', T - 900), q('Bitstamp', '104', T - 100), // unchanged, seen again recently
      q('Gemini', '250', T - 800), // a glitch; then the exchange went quiet
      q('Kraken', '84.1', T - 50, 'LTC'),
    ]) await prices.record(quote);
  });
  after(() => store.close());

  it('latest serves only prices seen within max age, stamped with when they were last seen', async () => {
    now = T;
    assert.deepEqual(await reader.latest('BTC', 'USD'), [q('Bitstamp', '104', T - 100)]);
    assert.deepEqual((await reader.latest('BTC')).map((x) => x.exchange), ['Bitstamp']);
    now = T - 500;
    assert.deepEqual((await reader.latest('BTC', 'USD')).map((x) => `${x.exchange}:${x.price}`), ['Bitstamp:104', 'Gemini:250', 'Kraken:110']);
    now = T + 1000;
    assert.deepEqual(await reader.latest('BTC', 'USD'), [], 'everything stale: an honest empty answer');
  });

  it('answers only for BTC, LTC and DOGE: test networks\' coins have no value', async () => {
    now = T;
    assert.equal((await reader.latest('LTC')).length, 1);
    assert.deepEqual(await reader.latest('LTCTEST'), []);
    assert.equal(await reader.at('LTCTEST', 'USD', T), null);
    assert.equal(await reader.at('ETH', 'USD', T), null);
  });

  it('at: median of each exchange\'s newest value at or before the time', async () => {
    assert.equal(await reader.at('BTC', 'USD', T - 2000), null, 'before any record');
    assert.deepEqual(await reader.at('BTC', 'USD', T - 1000), q('Kraken', '100', T - 1000));
    const twoExchanges = await reader.at('BTC', 'USD', T - 850);
    assert.equal(twoExchanges?.price, '102', 'mean of the middle two');
    assert.equal(twoExchanges?.exchange, 'median of Bitstamp, Kraken');
    assert.equal(twoExchanges?.time, T - 900);
    const three = await reader.at('BTC', 'USD', T - 750);
    assert.equal(three?.price, '104', 'median of 100, 104, 250: the glitch does not move it');
    assert.equal(await reader.at('BTC', 'EUR', T), null);
    // Last seen: Kraken T-500, Gemini T-800, Bitstamp T-100; max age 300 s.
    assert.equal((await reader.at('BTC', 'USD', T - 500))?.price, '110', 'all three quoting');
    assert.equal((await reader.at('BTC', 'USD', T - 450))?.price, '107', 'Gemini went quiet more than max age ago: mean of 104 and 110');
    assert.deepEqual(await reader.at('BTC', 'USD', T + 150), q('Bitstamp', '104', T - 900), 'Bitstamp\'s unchanged value is still valid');
    assert.equal(await reader.at('BTC', 'USD', T + 86_400), null, 'nobody quoting: no price');
  });
});
