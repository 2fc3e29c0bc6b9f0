/**
 * Local stand-ins for the exchanges' public REST APIs (loopback only: tests never call real exchanges).
 * A FakeExchange answers each request with whatever `reply` returns for its URL, and can hang forever.
 */
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PriceSourceId } from '../../src/core/domain/prices.js';

export type FakeReply =
  | { readonly status?: number; readonly body: unknown; readonly headers?: Record<string, string>; readonly delayMs?: number }
  | 'hang';

export interface FakeExchange {
  readonly url: string;
  /** Paths with query of every request received, in order. */
  readonly requests: string[];
  reply: (url: URL) => FakeReply;
  close(): Promise<void>;
}

export async function startFakeExchange(reply: (url: URL) => FakeReply): Promise<FakeExchange> {
  const requests: string[] = [];
  const hanging = new Set<ServerResponse>();
  const fake: FakeExchange = {
    url: '',
    requests,
    reply,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(`${url.pathname}${url.search}`);
    const answer = fake.reply(url);
    if (answer === 'hang') {
      hanging.add(res);
      return;
    }
    const send = (): void => {
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(text);
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (fake as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

const FIXTURES = new URL('../../src/market/sources/fixtures/', import.meta.url);

export function fixtureText(file: string): string {
  return readFileSync(new URL(file, FIXTURES), 'utf8');
}

/**
 * Serves the recorded responses of one exchange by URL, the way the real API would. `data` is the parsed fixture
 * (Bitfinex: the raw text) and may be changed by tests to move prices.
 */
export class FixtureExchange {
  data: Record<string, unknown> | string;

  constructor(readonly id: PriceSourceId) {
    const file = FIXTURE_FILES[id];
    this.data = id === 'bitfinex' ? fixtureText(file) : (JSON.parse(fixtureText(file)) as Record<string, unknown>);
  }

  readonly reply = (url: URL): FakeReply => {
    const data = this.data;
    const keyed = (key: string | undefined): FakeReply => {
      const body = key !== undefined && typeof data === 'object' ? data[key] : undefined;
      return body === undefined ? { status: 404, body: NOT_FOUND[this.id] } : { body };
    };
    switch (this.id) {
      case 'binance': return url.pathname === '/api/v3/ticker/price' ? { body: data } : { status: 404, body: NOT_FOUND.binance };
      case 'kraken': return url.pathname === '/0/public/Ticker' ? { body: data } : { status: 404, body: '' };
      case 'bitfinex': return url.pathname === '/v2/tickers' ? { body: data } : { status: 404, body: NOT_FOUND.bitfinex };
      case 'coinbase': return keyed(/^\/products\/([A-Z]+-[A-Z]+)\/ticker$/.exec(url.pathname)?.[1]);
      case 'bitstamp': return keyed(/^\/api\/v2\/ticker\/([a-z]+)\/$/.exec(url.pathname)?.[1]);
      case 'gemini': return keyed(/^\/v1\/pubticker\/([a-z]+)$/.exec(url.pathname)?.[1]);
      case 'okx': {
        const body = url.pathname === '/api/v5/market/ticker' && typeof data === 'object' ? data[url.searchParams.get('instId') ?? ''] : undefined;
        return { body: body ?? NOT_FOUND.okx };
      }
    }
  };
}

export const FIXTURE_FILES: Readonly<Record<PriceSourceId, string>> = {
  binance: 'binance-ticker-price.json',
  bitfinex: 'bitfinex-tickers.json',
  bitstamp: 'bitstamp-ticker.json',
  coinbase: 'coinbase-product-ticker.json',
  gemini: 'gemini-pubticker.json',
  kraken: 'kraken-ticker.json',
  okx: 'okx-market-ticker.json',
};

/** Each exchange's documented answer to an unknown market. */
export const NOT_FOUND: Readonly<Record<PriceSourceId, unknown>> = {
  binance: { code: -1121, msg: 'Invalid symbol.' },
  bitfinex: ['error', 10020, 'symbol: invalid'],
  bitstamp: { status: 'error', reason: 'Not Found', code: 'API0005' },
  coinbase: { message: 'NotFound' },
  gemini: { result: 'error', reason: 'InvalidSymbol', message: 'Supplied value is not a valid symbol' },
  kraken: { error: ['EQuery:Unknown asset pair'] },
  okx: { code: '51001', msg: "Instrument ID doesn't exist", data: [] },
};
