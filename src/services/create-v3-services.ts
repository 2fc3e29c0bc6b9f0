import type { EventBus } from '../core/events.js';
import type { Logger } from '../core/logger.js';
import type { MempoolSource } from '../core/mempool-source.js';
import type { NetworkId } from '../core/network.js';
import type { PriceReader } from '../core/prices.js';
import type { AccountStore } from '../core/account-store.js';
import { AccountService } from './account-service.js';
import { AddressPagesService } from './address-pages-service.js';
import { ChainSummaryService } from './chain-summary-service.js';
import { MempoolProjector } from './mempool-projector.js';
import type { NetworkRegistry } from './network-registry.js';
import type { UsageCounter } from '../core/usage-counter.js';
import { UsdPriceService } from './usd-price-service.js';

export interface V3ServiceDeps {
  readonly networks: NetworkRegistry;
  readonly accounts: AccountStore;
  readonly prices: PriceReader;
  /** Requests per account and day (main builds it: in this process and the store, or shared through Redis). */
  readonly usage: UsageCounter;
  /** Mempool change events (the indexer's bus); null refreshes projections by age only. */
  readonly events: EventBus | null;
  readonly mempoolSources: ReadonlyMap<NetworkId, MempoolSource>;
  readonly logger: Logger;
  /** UNIX seconds. */
  readonly now: () => number;
  readonly keyCacheMs?: number;
  readonly mempoolMaxAgeMs?: number;
}

/** What v3 adds to the shared services: accounts and quotas, numbered address pages, chain summaries, USD prices. */
export interface V3Services {
  readonly accounts: AccountService;
  readonly usage: UsageCounter;
  readonly pages: AddressPagesService;
  readonly chain: ChainSummaryService;
  readonly usd: UsdPriceService;
  readonly projector: MempoolProjector;
  /** Flushes the usage counts and stops timers and subscriptions. */
  close(): Promise<void>;
}

export function createV3Services(deps: V3ServiceDeps): V3Services {
  const usage = deps.usage;
  const projector = new MempoolProjector({
    networks: deps.networks,
    sources: deps.mempoolSources,
    events: deps.events,
    logger: deps.logger,
    ...(deps.mempoolMaxAgeMs !== undefined ? { maxAgeMs: deps.mempoolMaxAgeMs } : {}),
  });
  return {
    accounts: new AccountService(deps.accounts, deps.now, deps.keyCacheMs),
    usage,
    pages: new AddressPagesService(deps.networks),
    chain: new ChainSummaryService(deps.networks, projector),
    usd: new UsdPriceService(deps.prices),
    projector,
    async close() {
      projector.close();
      await usage.close();
    },
  };
}
