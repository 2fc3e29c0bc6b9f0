import type { NetworkId } from '../domain/network.js';

/** Webhooks (docs/webhooks.md): registrations per account, the deliveries they owe, and the txs they watch for depth. */

/**
 * A hook's type: one of the event catalogue's webhook types (services/events/catalogue/webhook-types.ts: address,
 * tx_confirmations, block, double_spend). The store keeps it as given; its CHECK constraint holds the same list.
 */
export type WebhookEvent = string;

export interface WebhookSpec {
  readonly accountId: number;
  readonly network: NetworkId;
  readonly event: WebhookEvent;
  readonly url: string;
  /** HMAC-SHA256 key of the signatures (shown to the owner once, kept to sign). */
  readonly secret: string;
  /** `address` and `double_spend` hooks: the address as registered and its output script in hex. */
  readonly address: string | null;
  readonly script: string | null;
  /** `tx_confirmations` (and `double_spend` on a tx): the watched txid. */
  readonly txid: string | null;
  /** `tx_confirmations`: the depth that fires it (1-100); `wallet`: the depth reported besides the first confirmation. */
  readonly confirmations: number | null;
  /** `wallet` hooks: the normalised descriptor (with its checksum) and the gap of the watched window. */
  readonly descriptor?: string | null;
  readonly gap?: number | null;
}

export interface Webhook extends WebhookSpec {
  readonly id: number;
  readonly createdAt: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface NewDelivery {
  /** Unique and derived from the hook and what happened, so the same event never makes two deliveries. */
  readonly id: string;
  readonly hookId: number;
  readonly event: WebhookEvent;
  readonly body: string;
}

export interface Delivery extends NewDelivery {
  readonly accountId: number;
  readonly url: string;
  readonly secret: string;
  readonly state: DeliveryState;
  readonly attempts: number;
  /** Milliseconds since the epoch. */
  readonly nextAt: number;
  readonly createdAt: number;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
}

/** A tx a hook follows to a depth (tx_confirmations), or for reorgs after an address delivery. */
export interface TxWatch {
  readonly hookId: number;
  readonly txid: string;
  readonly target: number;
  /** The confirmations last delivered for it (-1: none yet). */
  readonly delivered: number;
}

export interface WebhookStore {
  /** null when the account has `maxPerAccount` hooks, or the store `maxOfEvent` hooks of the spec's event (wallet hooks). */
  create(spec: WebhookSpec, now: number, maxPerAccount: number, maxOfEvent?: number): Promise<Webhook | null>;
  list(accountId: number): Promise<Webhook[]>;
  /** Every hook of a network (the matcher's index). */
  byNetwork(network: NetworkId): Promise<Webhook[]>;
  /** False when the account has no such hook. All its deliveries (pending or finished) and watches go with it. */
  remove(accountId: number, id: number): Promise<boolean>;
  /** Persists deliveries before any attempt; an id already stored is skipped. Resolves the ones added. */
  enqueue(deliveries: readonly NewDelivery[], nowMs: number): Promise<number>;
  /**
   * Claims up to `limit` pending deliveries due at `nowMs` for `leaseMs`: no other caller gets them until the lease
   * ends (a claimer that dies loses them when it does). PostgreSQL: SKIP LOCKED, so claimers never wait on each other.
   * A due delivery whose hook no longer exists is dropped instead, never leased.
   */
  claim(nowMs: number, leaseMs: number, limit: number): Promise<Delivery[]>;
  /** Records an attempt: delivered, retried at `nextAt`, or failed for good (nextAt null). */
  settle(id: string, outcome: { readonly state: DeliveryState; readonly nextAt: number | null; readonly status: number | null; readonly error: string | null }, nowMs: number): Promise<void>;
  /** An account's recent deliveries, newest first (the dashboard). */
  recent(accountId: number, limit: number): Promise<Delivery[]>;
  /** Puts a finished delivery of the account back to pending, due now (dashboard "re-send"); false when it has none (or its hook is gone). */
  resend(accountId: number, id: string, nowMs: number): Promise<boolean>;
  /** Deliveries made for the account since `sinceMs` (the daily budget). */
  countSince(accountId: number, sinceMs: number): Promise<number>;
  watch(watch: TxWatch, network: NetworkId): Promise<void>;
  watches(network: NetworkId): Promise<TxWatch[]>;
  /** Updates a watch's delivered depth, or drops it (null). */
  updateWatch(hookId: number, txid: string, delivered: number | null): Promise<void>;
}
