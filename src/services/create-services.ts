import type { AccountStore } from '../core/store/account-store.js';
import type { TxBroadcaster } from '../core/sources/broadcaster.js';
import type { EventBus } from '../core/domain/events.js';
import type { EventLogStore } from '../core/store/event-log-store.js';
import type { FeeEstimateSource } from '../core/sources/fee-source.js';
import type { Logger } from '../core/infrastructure/logger.js';
import type { MempoolSource } from '../core/sources/mempool-source.js';
import type { NetworkId } from '../core/domain/network.js';
import type { PriceReader } from '../core/domain/prices.js';
import type { ShortAddressStore } from '../core/store/short-address-store.js';
import type { SyncStatusSource } from '../core/domain/sync-status.js';
import type { UsageCounter } from '../core/limits/usage-counter.js';
import { AccountService } from './accounts/account-service.js';
import { AddressBalancesService } from './addresses/address-balances-service.js';
import { AddressDisplayService } from './addresses/address-display-service.js';
import { AddressOutputsService } from './addresses/address-outputs-service.js';
import { AddressPagesService } from './addresses/address-pages-service.js';
import { AddressBalanceHistoryService } from './addresses/address-balance-history-service.js';
import { AddressTimelineService } from './addresses/address-timeline-service.js';
import { AuxPowParentService, type RawBlockSource } from './blocks/auxpow-parent-service.js';
import { BlockService } from './blocks/block-service.js';
import { BlockFeeRateService } from './blocks/block-fee-rates.js';
import { BroadcastService } from './transactions/broadcast-service.js';
import { ChainSummaryService } from './network/chain-summary-service.js';
import { ConfidenceService } from './transactions/confidence-service.js';
import { DEFAULT_FEED_PAGE_BYTES, EventFeedService } from './events/event-feed-service.js';
import { ClientBudget } from './limits/client-budget.js';
import { WebhookService } from './webhooks/webhook-service.js';
import type { WebhookLimits } from './webhooks/webhook-limits.js';
import type { WebhookSender } from '../core/sources/webhook-sender.js';
import type { WebhookStore } from '../core/store/webhook-store.js';
import type { MempoolSampleStore } from '../core/store/mempool-sample-store.js';
import { FeeService } from './fees/fee-service.js';
import { EffectiveFeeRateService } from './transactions/effective-fee-rate.js';
import type { MempoolPackageSource } from '../core/sources/mempool-package-source.js';
import { MempoolHistoryService } from './network/mempool-history-service.js';
import { MempoolProjector } from './network/mempool-projector.js';
import { NetworkInfoService } from './network/network-info-service.js';
import { NetworkRegistry, type NetworkMap } from './shared/network-registry.js';
import { PriceService } from './prices/price-service.js';
import { SearchService } from './search/search-service.js';
import { ShortAddressService } from './addresses/short-address-service.js';
import { DEFAULT_KEY_FAILURES, KeyFailureLimit, type KeyFailureRule } from './limits/key-failure-limit.js';
import { SyncGate } from './shared/sync-gate.js';
import { storeSyncStatusSource, SyncStatusCache } from './shared/sync-status-cache.js';
import { TxService } from './transactions/tx-service.js';
import { WalletService } from './wallets/wallet-service.js';
import { DerivationBudget, DEFAULT_DERIVE_PER_MINUTE } from './wallets/derivation-budget.js';
import { DerivationCache, DEFAULT_CACHE_BYTES } from './wallets/derivation-cache.js';
import { DerivationPool } from './wallets/derivation-pool.js';
import type { RateCounterFactory } from '../core/limits/rate-counter.js';
import { availableParallelism } from 'node:os';

export interface ServiceDeps {
  readonly networks: NetworkMap;
  readonly prices: PriceReader;
  readonly broadcaster: TxBroadcaster;
  readonly shortLinks: ShortAddressStore;
  /** UNIX seconds; injectable so confidence is testable. */
  readonly now?: () => number;
  /** Where each network's initial-sync status comes from; default the store (each reader's getSyncStatus). */
  readonly syncStatus?: SyncStatusSource;
  /** Per network, the node's raw blocks (AuxPoW parents are not indexed); without one they are not shown. */
  readonly rawBlocks?: ReadonlyMap<NetworkId, RawBlockSource>;
  readonly logger: Logger;
  /** Per network, the node's mempool for block projections; networks without one project the index's mempool. */
  readonly mempoolSources?: ReadonlyMap<NetworkId, MempoolSource>;
  /** Per network, the node's fee estimates; networks without one estimate from the projection and relay fee alone. */
  readonly feeSources?: ReadonlyMap<NetworkId, FeeEstimateSource>;
  /** Per network: the node's mempool packages (the explorer's effective CPFP fee rates). */
  readonly packageSources?: ReadonlyMap<NetworkId, MempoolPackageSource>;
  /** Mempool change events (the indexer's bus): projections are recomputed on change; without it by age only. */
  readonly events?: EventBus | null;
  readonly mempoolMaxAgeMs?: number;
  /** Accounts, API keys and their daily usage (v3, dashboard); without them the account domain is absent. */
  /** The realtime event log (the store's): the catch-up feed reads it; without it there is no feed. */
  readonly eventLog?: EventLogStore;
  /** The indexers' mempool samples (the explorer's 24-hour chart); without them the chart is empty. */
  readonly mempoolSamples?: MempoolSampleStore;
  /** Webhooks (v3, dashboard): the store, the target check of the sender, the plans' limits; without them no webhooks. */
  readonly webhooks?: { readonly store: WebhookStore; readonly targets: Pick<WebhookSender, 'checkTarget'>; readonly limits: WebhookLimits };
  readonly accounts?: { readonly store: AccountStore; readonly usage: UsageCounter; readonly keyCacheMs?: number; readonly keyFailures?: KeyFailureRule };
  /** Wallet derivation (`[wallets]`, docs/wallets.md, Limits); absent keys take their defaults. */
  readonly wallets?: WalletLimits;
  /** The catch-up feed's bounds (`[realtime] feed_page_kib`, `feed_mib_per_minute`); absent keys take their defaults. */
  readonly feed?: { readonly pageBytes?: number; readonly bytesPerMinute?: number };
  /** The rate counters (this process's or Redis's) per-client budgets count on; without them no per-client budgets. */
  readonly counters?: RateCounterFactory;
}

export interface WalletLimits {
  readonly derivePerMinute?: number;
  readonly threads?: number;
  readonly queue?: number;
  readonly cacheBytes?: number;
}

/** Bytes of catch-up pages per client network and minute unless configured: 64 pages of the default size. */
const DEFAULT_FEED_BYTES_PER_MINUTE = 64 * 1024 * 1024;

function feedService(deps: ServiceDeps, networks: NetworkRegistry): EventFeedService | null {
  if (!deps.eventLog) return null;
  const budget = new ClientBudget({
    perMinute: deps.feed?.bytesPerMinute ?? DEFAULT_FEED_BYTES_PER_MINUTE, counter: deps.counters ? deps.counters('outpoint:feed:') : null, logger: deps.logger,
    name: 'catch-up feed budget',
    refusal: (limit, wait) => `this client network was sent its ${Math.round(limit / 1048576)} MiB of catch-up pages of the minute: retry in ${wait} s`,
  });
  return new EventFeedService(networks, deps.eventLog, { pageBytes: deps.feed?.pageBytes ?? DEFAULT_FEED_PAGE_BYTES, budget });
}

function walletService(networks: NetworkRegistry, limits: WalletLimits, counters: RateCounterFactory | undefined, logger: Logger): { service: WalletService; close(): Promise<void> } {
  const pool = new DerivationPool({
    threads: limits.threads ?? Math.max(1, Math.floor(availableParallelism() / 2)),
    queue: limits.queue ?? 32,
    onLost: (error) => logger.error('wallets: a derivation thread failed; deriving on the event loop from now on', { error: error.message }),
  });
  const budget = new DerivationBudget(limits.derivePerMinute ?? DEFAULT_DERIVE_PER_MINUTE, counters ? counters('outpoint:derive:') : null, logger);
  const service = new WalletService(networks, new DerivationCache(pool, limits.cacheBytes ?? DEFAULT_CACHE_BYTES), budget);
  return { service, close: async () => void (await Promise.all([pool.close(), budget.close()])) };
}

/** v3 API keys and the requests counted against their plans. */
export interface AccountServices {
  readonly keys: AccountService;
  readonly usage: UsageCounter;
  /** v3 401s per client network (429 past the limit). */
  readonly keyFailures: KeyFailureLimit;
}

/** Addresses: balances, the three listings (each in the order and paging its readers' contract fixes), display forms, short links. */
export interface AddressDomain {
  /** Balances, received/sent totals, validity. */
  readonly balances: AddressBalancesService;
  /** Received, spent and unspent outputs oldest first, paged after a txid (v2; the explorer's unspent list). */
  readonly outputs: AddressOutputsService;
  /** Transactions newest first and unspent outputs in numbered pages, and counts (v3). */
  readonly pages: AddressPagesService;
  /** The whole history with stable cursors both ways, and oldest-first chunks for CSV (explorer). */
  readonly timeline: AddressTimelineService;
  /** The confirmed balance after each block that touched the address, its newest txs (the explorer's chart). */
  readonly balanceHistory: AddressBalanceHistoryService;
  /** Totals with the latest transactions and their counterparties (v2 address display). */
  readonly display: AddressDisplayService;
  readonly shorts: ShortAddressService;
}

/** Transactions: reads, network confidence and double spends, broadcast. */
export interface TransactionDomain {
  readonly reads: TxService;
  readonly confidence: ConfidenceService;
  readonly broadcast: BroadcastService;
  readonly effectiveRates: EffectiveFeeRateService;
}

/** Blocks: reads and (merge-mined coins) their AuxPoW parents from the node. */
export interface BlockDomain {
  readonly reads: BlockService;
  readonly auxpow: AuxPowParentService;
  readonly feeRates: BlockFeeRateService;
}

/** Each network's state: get_info, network_info with the mempool projection, the projector itself. */
export interface NetworkDomain {
  readonly info: NetworkInfoService;
  readonly chain: ChainSummaryService;
  readonly projector: MempoolProjector;
  /** The mempool's size over the last 24 hours (the indexers' samples). */
  readonly history: MempoolHistoryService;
}

/**
 * Every operation the entry layers (v2, v3, realtime's readers, explorer, dashboard) use, by domain, built once per
 * process by main. An API version or page picks the method whose paging and order its contract names.
 */
export interface Services {
  /** The configured networks and their sync gate. */
  readonly networks: NetworkRegistry;
  readonly addresses: AddressDomain;
  readonly transactions: TransactionDomain;
  readonly blocks: BlockDomain;
  readonly network: NetworkDomain;
  readonly prices: PriceService;
  /** Search across networks (heights, hashes, txids, addresses, short forms). */
  readonly search: SearchService;
  /** Extended public keys and descriptors as wallets: gap scan, balances, history, unspent outputs (docs/wallets.md). */
  readonly wallets: WalletService;
  /** Fee rate estimates per network: the mempool projection blended with the node's (docs/wallets.md, Fees). */
  readonly fees: FeeService;
  /** null when the store's accounts are not served (no v3, no dashboard). */
  readonly accounts: AccountServices | null;
  /** The realtime catch-up feed (docs/realtime.md); null without an event log. */
  readonly events: EventFeedService | null;
  /** Webhook registration and deliveries (docs/webhooks.md); null when not configured. */
  readonly webhooks: WebhookService | null;
  /** Flushes usage counts and stops the projector's timers and subscriptions. */
  close(): Promise<void>;
}

export function createServices(deps: ServiceDeps): Services {
  const now = deps.now ?? (() => Math.floor(Date.now() / 1000));
  const gate = new SyncGate(new SyncStatusCache(deps.syncStatus ?? storeSyncStatusSource(deps.networks, now)), now);
  const networks = new NetworkRegistry(deps.networks, gate);
  const prices = new PriceService(deps.prices);
  const projector = new MempoolProjector({
    networks,
    sources: deps.mempoolSources ?? new Map(),
    events: deps.events ?? null,
    logger: deps.logger,
    ...(deps.mempoolMaxAgeMs !== undefined ? { maxAgeMs: deps.mempoolMaxAgeMs } : {}),
  });
  const wallets = walletService(networks, deps.wallets ?? {}, deps.counters, deps.logger);
  const events = feedService(deps, networks);
  const accounts = deps.accounts
    ? { keys: new AccountService(deps.accounts.store, now, deps.accounts.keyCacheMs), usage: deps.accounts.usage, keyFailures: new KeyFailureLimit(deps.accounts.keyFailures ?? DEFAULT_KEY_FAILURES) }
    : null;
  return {
    networks,
    addresses: {
      balances: new AddressBalancesService(networks),
      outputs: new AddressOutputsService(networks),
      pages: new AddressPagesService(networks),
      timeline: new AddressTimelineService(networks),
      balanceHistory: new AddressBalanceHistoryService(networks),
      display: new AddressDisplayService(networks),
      shorts: new ShortAddressService(networks, deps.shortLinks),
    },
    transactions: {
      reads: new TxService(networks),
      confidence: new ConfidenceService(networks, deps.now),
      broadcast: new BroadcastService(networks, deps.broadcaster),
      effectiveRates: new EffectiveFeeRateService(networks, deps.packageSources ?? new Map()),
    },
    blocks: { reads: new BlockService(networks), auxpow: new AuxPowParentService(deps.rawBlocks ?? new Map()), feeRates: new BlockFeeRateService(networks) },
    network: {
      info: new NetworkInfoService(networks, prices), chain: new ChainSummaryService(networks, projector), projector,
      history: new MempoolHistoryService(networks, deps.mempoolSamples ?? null, now),
    },
    prices,
    search: new SearchService(networks, deps.shortLinks),
    wallets: wallets.service,
    fees: new FeeService(networks, projector, deps.feeSources ?? new Map(), deps.logger),
    accounts,
    events,
    webhooks: deps.webhooks ? new WebhookService(deps.webhooks.store, networks, deps.webhooks.targets, deps.webhooks.limits) : null,
    async close() {
      projector.close();
      await wallets.close();
      await events?.limits.budget.close();
      await accounts?.usage.close();
    },
  };
}
