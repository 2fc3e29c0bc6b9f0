/** What every exchange adapter shares: options, quote building and the "some pairs may fail" rule. */
import type { PricePair, PriceQuote } from '../../core/domain/prices.js';
import { normalizePrice } from '../decimal-price.js';
import { ExchangeError } from '../exchange-error.js';

export interface SourceOptions {
  /** Replaces the exchange's public API origin (tests, proxies, air-gapped mirrors). */
  readonly baseUrl?: string;
  /** UNIX seconds; quotes carry the time we observed them. */
  readonly now?: () => number;
}

export const unixNow = (): number => Math.floor(Date.now() / 1000);

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
