/** Conformance: exchange prices are recorded on change only, read back exactly, and answer "at or before t" per exchange. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { PriceQuote } from '../../core/domain/prices.js';
import { withDb } from './conformance-chain.js';
import type { StoreHarness } from './harness.js';

const T = 1_700_000_000;

function quote(exchange: string, price: string, time: number, base = 'USD', coin = 'BTC'): PriceQuote {
  return { coin, base, exchange, price, time };
}

export function priceTests(harness: StoreHarness): void {
  it('records changes only; unchanged observations move checkedAt', () => withDb(harness, async (db) => {
    const prices = db.store.prices();
    assert.equal(await prices.record(quote('Kraken', '65000.1', T)), true, 'first observation is a change');
    assert.equal(await prices.record(quote('Kraken', '65000.1', T + 10)), false, 'same price is not a change');
    assert.deepEqual(await prices.latest('BTC', 'USD'), [{ ...quote('Kraken', '65000.1', T), checkedAt: T + 10 }]);
    assert.equal(await prices.record(quote('Kraken', '65010', T + 20)), true);
    assert.equal(await prices.record(quote('Kraken', '65000.1', T + 30)), true, 'back to an earlier price is a change');
    assert.deepEqual(await prices.latest('BTC', 'USD'), [{ ...quote('Kraken', '65000.1', T + 30), checkedAt: T + 30 }]);
    const history = (await db.dump())['price_history']!;
    assert.equal(history.length, 3, 'one history row per change');
  }));

  it('ignores observations older than the stored latest price; the later of two changes in one second wins', () => withDb(harness, async (db) => {
    const prices = db.store.prices();
    await prices.record(quote('Gemini', '100', T + 100));
    assert.equal(await prices.record(quote('Gemini', '99', T + 50)), false);
    assert.equal(await prices.record(quote('Gemini', '101', T + 100)), true);
    assert.deepEqual((await prices.latest('BTC')).map((q) => q.price), ['101']);
    assert.deepEqual((await prices.at('BTC', 'USD', T + 100)).map((q) => q.price), ['101']);
  }));

  it('latest: per exchange, one base or every base, sorted by base then exchange', () => withDb(harness, async (db) => {
    const prices = db.store.prices();
    for (const q of [
      quote('Kraken', '65000', T), quote('Bitstamp', '64990', T + 1), quote('Kraken', '60000', T, 'EUR'),
      quote('Binance', '65005.5', T, 'USDT'), quote('Kraken', '84.12', T, 'USD', 'LTC'),
    ]) await prices.record(q);
    assert.deepEqual((await prices.latest('BTC', 'USD')).map((q) => `${q.exchange}:${q.price}`), ['Bitstamp:64990', 'Kraken:65000']);
    assert.deepEqual((await prices.latest('BTC')).map((q) => `${q.base}/${q.exchange}`), ['EUR/Kraken', 'USD/Bitstamp', 'USD/Kraken', 'USDT/Binance']);
    assert.deepEqual(await prices.latest('DOGE'), []);
    assert.deepEqual(await prices.latest('BTC', 'GBP'), []);
  }));

  it('at: each exchange\'s newest price at or before the time', () => withDb(harness, async (db) => {
    const prices = db.store.prices();
    for (const q of [
      quote('Kraken', '100', T), quote('Kraken', '110', T + 60), quote('Kraken', '120', T + 120),
      quote('Bitstamp', '105', T + 30), quote('Bitstamp', '115', T + 90),
      quote('Kraken', '1', T, 'EUR'),
    ]) await prices.record(q);
    const at = async (time: number) =>
      (await prices.at('BTC', 'USD', time)).map((q) => `${q.exchange}:${q.price}@${q.time - T}`);
    assert.deepEqual(await at(T - 1), []);
    assert.deepEqual(await at(T), ['Kraken:100@0']);
    assert.deepEqual(await at(T + 59), ['Bitstamp:105@30', 'Kraken:100@0']);
    assert.deepEqual(await at(T + 90), ['Bitstamp:115@90', 'Kraken:110@60']);
    assert.deepEqual(await at(T + 10_000), ['Bitstamp:115@90', 'Kraken:120@120']);
    assert.deepEqual(await prices.at('LTC', 'USD', T + 100), []);
  }));

  it('keeps decimal strings exactly and persists them', () => withDb(harness, async (db) => {
    const prices = db.store.prices();
    const tiny = '0.000001234567890123456789';
    const huge = '123456789012345678901234567890.123456789';
    await prices.record(quote('Binance', tiny, T, 'BTC', 'DOGE'));
    await prices.record(quote('Binance', huge, T, 'USD', 'DOGE'));
    const reopened = await db.reopen();
    assert.deepEqual((await reopened.prices().latest('DOGE')).map((q) => q.price), [tiny, huge]);
    assert.deepEqual((await reopened.prices().at('DOGE', 'BTC', T)).map((q) => q.price), [tiny]);
  }));

  it('concurrent recorders of one change agree that it changed once', () => withDb(harness, async (db) => {
    const prices = db.store.prices();
    await prices.record(quote('OKX', '1', T));
    const results = await Promise.all(Array.from({ length: 6 }, () => prices.record(quote('OKX', '2', T + 1))));
    assert.equal(results.filter(Boolean).length, 1);
  }));
}
