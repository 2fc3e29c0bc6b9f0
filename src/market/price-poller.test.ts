import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../core/infrastructure/logger.js';
import type { PriceQuote, PriceSource, PriceSourceId } from '../core/domain/prices.js';
import { nextDelayMs } from './backoff.js';
import { ExchangeError } from './exchange-error.js';
import { PricePoller } from './price-poller.js';

function quote(exchange: string, price = '1'): PriceQuote {
  return { coin: 'BTC', base: 'USD', exchange, price, time: 1 };
}

/** A source whose behaviour per call is scripted; records when each fetch started. */
function scripted(id: PriceSourceId, behave: (call: number, signal: AbortSignal) => Promise<PriceQuote[]>): PriceSource & { starts: number[] } {
  const starts: number[] = [];
  return {
    id, name: id, pairs: [{ coin: 'BTC', base: 'USD' }], starts,
    fetch(signal) {
      starts.push(Date.now());
      return behave(starts.length, signal);
    },
  };
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) => lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  return { lines, info: log('info'), warn: log('warn'), error: log('error') };
}

const never = (): Promise<PriceQuote[]> => new Promise(() => undefined);

void describe('price poller', () => {
  it('a slow exchange never delays the others, and is cut off at the timeout', async () => {
    const slow = scripted('kraken', never); // ignores its signal on purpose
    const fast = scripted('bitstamp', async () => [quote('bitstamp')]);
    const got: string[] = [];
    const logger = recordingLogger();
    const poller = new PricePoller([slow, fast], {
      intervalMs: 20, timeoutMs: 250, logger, onQuotes: async (s) => void got.push(s.id),
    });
    poller.start();
    await sleep(200);
    assert.equal(slow.starts.length, 1);
    assert.ok(fast.starts.length >= 4, `fast source polled ${fast.starts.length} times while the slow one hung`);
    assert.equal(got.filter((g) => g === 'kraken').length, 0);
    await sleep(150);
    assert.equal(poller.failures()['kraken'], 1, 'timed out once');
    assert.ok(logger.lines.some((l) => /price source failing.*kraken.*no answer within 250 ms/.test(l)));
    assert.equal(poller.failures()['bitstamp'], 0);
    await poller.stop();
  });

  it('backs off exponentially while failing and returns to the interval after a success', async () => {
    const source = scripted('okx', async (call) => {
      if (call <= 4) throw new ExchangeError('HTTP 500');
      return [quote('okx')];
    });
    const poller = new PricePoller([source], { intervalMs: 20, timeoutMs: 1000, maxBackoffMs: 10_000, logger: recordingLogger(), onQuotes: async () => undefined });
    poller.start();
    // Until the poll after the first success (six starts): timers run late on a loaded machine, so wait for them.
    const deadline = Date.now() + 10_000;
    while (source.starts.length < 6 && Date.now() < deadline) await sleep(10);
    await poller.stop();
    const gaps = source.starts.slice(1).map((t, i) => t - source.starts[i]!);
    // After failure n the wait is 20 × 2^n: 40, 80, 160, 320 (timers may be late, never early); then the interval again,
    // well below the 640 a fifth failure would have made.
    for (const [i, want] of [40, 80, 160, 320].entries()) assert.ok(gaps[i]! >= want - 5 && gaps[i]! < want + 300, `gap ${i} = ${gaps[i]} (want ~${want})`);
    assert.ok(gaps.length >= 5 && gaps[4]! < 320, `after the success the interval applies again: ${gaps.join(',')}`);
    assert.equal(poller.failures()['okx'], 0);
  });

  it('logs an unreachable exchange once when it starts failing and once when it recovers, not on every poll', async () => {
    const source = scripted('binance', async (call) => {
      if (call <= 5 || (call >= 8 && call <= 10)) throw new ExchangeError('getaddrinfo ENOTFOUND api.binance.com');
      return [quote('binance')];
    });
    const logger = recordingLogger();
    const poller = new PricePoller([source], { intervalMs: 5, timeoutMs: 1000, maxBackoffMs: 5, logger, onQuotes: async () => undefined });
    poller.start();
    const deadline = Date.now() + 10_000;
    while (source.starts.length < 12 && Date.now() < deadline) await sleep(10);
    await poller.stop();
    assert.ok(source.starts.length >= 12, 'two outages and two recoveries happened');
    const failing = logger.lines.filter((l) => /market: price source failing/.test(l));
    const recovered = logger.lines.filter((l) => /market: price source recovered/.test(l));
    assert.equal(failing.length, 2, `one line per outage, not per poll:\n${logger.lines.join('\n')}`);
    assert.match(failing[0]!, /^warn .*binance.*ENOTFOUND/);
    assert.equal(recovered.length, 2);
    assert.match(recovered[0]!, /^info .*"source":"binance","failures":5/);
    assert.match(recovered[1]!, /"failures":3/);
  });

  it('computes delays: cap, Retry-After, reset', () => {
    assert.equal(nextDelayMs(15_000, 0, 600_000), 15_000);
    assert.equal(nextDelayMs(15_000, 1, 600_000), 30_000);
    assert.equal(nextDelayMs(15_000, 3, 600_000), 120_000);
    assert.equal(nextDelayMs(15_000, 10, 600_000), 600_000, 'capped');
    assert.equal(nextDelayMs(15_000, 1000, 600_000), 600_000, 'no overflow');
    assert.equal(nextDelayMs(15_000, 1, 600_000, 90_000), 90_000, 'Retry-After wins when longer');
    assert.equal(nextDelayMs(60_000, 1, 1000), 60_000, 'cap never below the interval');
  });

  it('stop() aborts requests in flight and polls no more', async () => {
    let aborted = false;
    const source = scripted('gemini', (_call, signal) => new Promise((_resolve, reject) => {
      signal.addEventListener('abort', () => {
        aborted = true;
        reject(signal.reason as Error);
      });
    }));
    const poller = new PricePoller([source], { intervalMs: 10, timeoutMs: 10_000, logger: recordingLogger(), onQuotes: async () => undefined });
    poller.start();
    await sleep(30);
    await poller.stop();
    assert.ok(aborted);
    const calls = source.starts.length;
    await sleep(50);
    assert.equal(source.starts.length, calls);
  });

  it('keeps polling when recording fails, and warns once about pairs an exchange stopped quoting', async () => {
    const source: PriceSource & { starts: number[] } = {
      ...scripted('coinbase', async () => [quote('coinbase')]),
      pairs: [{ coin: 'BTC', base: 'USD' }, { coin: 'LTC', base: 'GBP' }],
    };
    let calls = 0;
    const logger = recordingLogger();
    const poller = new PricePoller([source], {
      intervalMs: 10, timeoutMs: 1000, logger,
      onQuotes: async () => {
        calls++;
        throw new Error('database is locked');
      },
    });
    poller.start();
    // Polls every 10 ms; a loaded machine may take much longer for three, so wait for them (bounded).
    const deadline = Date.now() + 10_000;
    while (calls < 3 && Date.now() < deadline) await sleep(10);
    await poller.stop();
    assert.ok(calls >= 3, `polled ${calls} times`);
    assert.ok(logger.lines.some((l) => /error market: recording prices failed.*database is locked/.test(l)));
    assert.equal(logger.lines.filter((l) => /pairs without a price.*LTC\/GBP/.test(l)).length, 1);
  });
});
