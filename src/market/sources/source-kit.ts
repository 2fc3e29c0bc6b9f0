/** What every exchange adapter shares: options, quote building and the "some pairs may fail" rule. */
import type { CoinId } from '../../core/domain/network.js';
import type { PricePair, PriceQuote, PriceSource, PriceSourceId } from '../../core/domain/prices.js';
import { normalizePrice } from '../decimal-price.js';
import { ExchangeError } from '../exchange-error.js';

export interface SourceOptions {
  /** Replaces the exchange's public API origin (tests, proxies, air-gapped mirrors). */
  readonly baseUrl?: string;
  /** UNIX seconds; quotes carry the time we observed them. */
  readonly now?: () => number;
}

export const unixNow = (): number => Math.floor(Date.now() / 1000);

/** A pair named by its coin (one of the coin catalogue's, chains/networks.ts) and base alone. */
export const pair = (coin: CoinId, base: string): PricePair => ({ coin, base });

/** A pair the exchange names by one symbol. */
export interface SymbolPair extends PricePair {
  readonly symbol: string;
}

export const symbolPair = (coin: CoinId, base: string, symbol: string): SymbolPair => ({ coin, base, symbol });

/** What an adapter's requests are built from: its name, the API origin (options.baseUrl or the exchange's) and the clock. */
export interface SourceEnv {
  readonly name: PriceSourceId;
  readonly base: string;
  readonly now: () => number;
}

/** An exchange adapter from its id (also its name: clients compare exchanges by the lower-case id), pairs and fetch. */
export function priceSource(
  id: PriceSourceId, pairs: readonly PricePair[], defaultUrl: string, options: SourceOptions,
  fetch: (env: SourceEnv, signal: AbortSignal) => Promise<PriceQuote[]>,
): PriceSource {
  const env: SourceEnv = { name: id, base: baseUrlOf(options, defaultUrl), now: options.now ?? unixNow };
  return { id, name: id, pairs, fetch: (signal) => fetch(env, signal) };
}

export function baseUrlOf(options: SourceOptions, fallback: string): string {
  return (options.baseUrl ?? fallback).replace(/\/+$/, '');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A quote when `raw` is a valid positive decimal; null otherwise (that pair counts as unanswered). */
export function quoteOf(exchange: string, pair: PricePair, raw: unknown, time: number): PriceQuote | null {
  const price = normalizePrice(raw);
  return price === null ? null : { coin: pair.coin, base: pair.base, exchange, price, time };
}

/** The usable quotes of one response; an answer with none is a failure of the whole fetch. */
export function usable(exchange: string, quotes: readonly (PriceQuote | null)[]): PriceQuote[] {
  const found = quotes.filter((q): q is PriceQuote => q !== null);
  if (found.length === 0) throw new ExchangeError(`${exchange}: no valid price in the response`);
  return found;
}

/**
 * For exchanges with one ticker URL per pair: ask for every pair at once and keep what answered. A delisted
 * pair then costs only that pair; but a rate limit anywhere, or no answer at all, fails the fetch so the
 * poller backs off.
 */
export async function fetchEachPair<P extends PricePair>(
  exchange: string,
  pairs: readonly P[],
  fetchOne: (pair: P) => Promise<PriceQuote | null>,
): Promise<PriceQuote[]> {
  const settled = await Promise.allSettled(pairs.map(fetchOne));
  const failures = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  const limited = failures.find((e) => e instanceof ExchangeError && e.rateLimited);
  if (limited) throw limited;
  const quotes = settled.flatMap((s) => (s.status === 'fulfilled' && s.value !== null ? [s.value] : []));
  if (quotes.length === 0 && failures.length > 0) throw failures[0];
  return usable(exchange, quotes);
}
