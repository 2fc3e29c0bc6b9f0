/**
 * The market layer's one entry for main: exchange adapters → poller → PriceStore (+ `price` events) and the
 * PriceReader the APIs use. With no sources configured nothing polls and the reader answers from whatever the
 * store holds (another process may be polling into a shared PostgreSQL store), which is empty otherwise.
 */
import type { EventBus } from '../core/domain/events.js';
import type { Logger } from '../core/infrastructure/logger.js';
import type { MarketSettings, PriceReader, PriceSource } from '../core/domain/prices.js';
import type { PriceStore } from '../core/store/price-store.js';
import { PricePoller, type SourceStatus } from './price-poller.js';
import { priceRecorder } from './price-recorder.js';
import { createPriceSource } from './sources/price-sources.js';
import { StoredPriceReader } from './stored-price-reader.js';

export interface Market {
  readonly reader: PriceReader;
  /** The configured sources, in config order (empty when polling is off). */
  readonly sources: readonly PriceSource[];
  /** Each polled source's state (empty when polling is off or happens in another process). */
  status(): SourceStatus[];
  start(): void;
  stop(): Promise<void>;
}

export interface MarketTestHooks {
  /** UNIX seconds, for quotes and staleness. */
  readonly now?: () => number;
  readonly maxBackoffMs?: number;
}

export function createMarket(options: MarketSettings, store: PriceStore, bus: EventBus, logger: Logger, hooks: MarketTestHooks = {}): Market {
  const sources = options.sources.map((id) => {
    const baseUrl = options.baseUrls[id];
    return createPriceSource(id, { ...(baseUrl ? { baseUrl } : {}), ...(hooks.now ? { now: hooks.now } : {}) });
  });
  const record = priceRecorder(store, bus);
  const poller = new PricePoller(sources, {
    intervalMs: options.intervalMs,
    timeoutMs: options.timeoutMs,
    ...(hooks.maxBackoffMs !== undefined ? { maxBackoffMs: hooks.maxBackoffMs } : {}),
    onQuotes: (_source, quotes) => record(quotes),
    logger,
  });
  let started = false;
  const reader = new StoredPriceReader(store, { maxAgeS: options.maxAgeS, ...(hooks.now ? { now: hooks.now } : {}) });
  return {
    reader,
    sources,
    start: () => {
      started = true;
      if (sources.length > 0) logger.info('market: polling prices', { sources: sources.map((s) => s.id), intervalMs: options.intervalMs });
      poller.start();
    },
    status: () => (started ? poller.status() : []),
    stop: () => poller.stop(),
  };
}
