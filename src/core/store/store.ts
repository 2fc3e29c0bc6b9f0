import type { AccountStore } from './account-store.js';
import type { AuthStore } from './auth-store.js';
import type { EventLogStore } from './event-log-store.js';
import type { MempoolSampleStore } from './mempool-sample-store.js';
import type { WebhookStore } from './webhook-store.js';
import type { RawTxModeChange } from './chain-writes.js';
import type { NetworkId } from '../domain/network.js';
import type { NetworkStore } from './network-store.js';
import type { PriceStore } from './price-store.js';
import type { ReadReplicas } from './read-replicas.js';
import type { RawTxMode } from '../sources/raw-txs.js';
import type { ShortAddressStore } from './short-address-store.js';

/**
 * The persistence boundary. One database holds every network; a NetworkStore is the view of one.
 * Scripts (scriptPubKey bytes) are the address key: callers decode addresses at the edge.
 * Amounts are bigint everywhere; the drivers store sums so they can neither overflow nor round.
 */
export interface ChainStore {
  /**
   * Creates or upgrades the schema. Rejects with StoreError if the database has a newer/unknown version.
   * `toVersion` stops at that version (upgrade tests build an older layout with it); the default is the newest.
   */
  migrate(toVersion?: number): Promise<void>;
  /** The version recorded in the database (0 when it has no schema yet). */
  schemaVersion(): Promise<number>;
  close(): Promise<void>;
  network(id: NetworkId): NetworkStore;
  /** Persistent short forms of addresses (v2 `short`, explorer links). */
  shortAddresses(): ShortAddressStore;
  /** Exchange price history (market data): every observed change, for every coin, base and exchange. */
  prices(): PriceStore;
  /** v3 accounts, plans, API keys (hashes only) and daily usage counts. */
  accounts(): AccountStore;
  /** Dashboard sign-in data: password hashes, second factors, sessions, one-time tokens, invites. */
  auth(): AuthStore;
  /** The realtime event log: what the catch-up feed answers (docs/realtime.md). */
  events(): EventLogStore;
  /** Webhooks: registrations, deliveries (claimed with a lease), watched txs (docs/webhooks.md). */
  webhooks(): WebhookStore;
  /** The mempool's size sampled by the indexers (the explorer's 24-hour chart); rebuildable telemetry. */
  mempoolSamples(): MempoolSampleStore;
  /**
   * Records `[store] raw_txs` (the writer process calls it at start). With "node", every network's stored raw
   * transactions of confirmed txs are deleted and their space given back (a switch from "store"). Resolves the mode
   * recorded before (null: none yet) and how many rows were deleted.
   */
  applyRawTxMode(mode: RawTxMode): Promise<RawTxModeChange>;
  /** The streaming replicas the API reads from (`[store] read_urls`, PostgreSQL); null when every read goes to the one database. */
  readReplicas(): ReadReplicas | null;
}
