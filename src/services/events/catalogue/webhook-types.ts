import type { NetworkId } from '../../../core/domain/network.js';

/*
 * The webhook types (docs/webhooks.md): what a hook of each type names at registration, and the body of a delivery
 * that reports a watched tx's depth. The bodies of deliveries made by one event are with that event's kind in
 * event-catalogue.ts. Registration (services/webhooks), the v3 schema's enum and the matcher read this list; the SQL
 * CHECK constraints of `webhooks.event` (store/migrations/*-011-webhooks.sql) keep a literal copy, which a test holds
 * equal to it.
 */

/**
 * What a hook watches: an address (`address`), a txid (`txid`), either (`address-or-txid`: the address when given,
 * else the txid), or the whole network (`network`); `depth`: it also names the confirmations that fire it.
 */
export interface WebhookTypeEntry {
  readonly target: 'address' | 'txid' | 'address-or-txid' | 'network' | 'wallet';
  readonly depth: boolean;
  /** The body reporting a watched tx's depth (tx_confirmations' target reached or lost; an address tx's reorg); null: never watched. */
  readonly depthBody: ((watched: WatchedDepth) => Record<string, unknown>) | null;
}

/** A watched tx's depth as the matcher judged it at a connected or disconnected block. */
export interface WatchedDepth {
  readonly network: NetworkId;
  readonly txid: string;
  /** The hook's address as registered (address hooks). */
  readonly address: string | null;
  /** The wallet's id, its descriptor's checksum (wallet hooks). */
  readonly wallet?: string | null;
  /** Confirmations now: 0 in the mempool, -1 when it is nowhere. */
  readonly depth: number;
  readonly target: number;
  readonly reorg: boolean;
}

export const WEBHOOK_CATALOGUE = {
  address: {
    target: 'address',
    depth: false,
    depthBody: (w: WatchedDepth) => ({ event: 'address', network: w.network, address: w.address, txid: w.txid, confirmations: Math.max(w.depth, 0), reorg: w.reorg, removed: w.depth < 0 }),
  },
  tx_confirmations: {
    target: 'txid',
    depth: true,
    depthBody: (w: WatchedDepth) => ({
      event: 'tx_confirmations', network: w.network, txid: w.txid, confirmations: Math.max(w.depth, 0), target: w.target, reorg: w.reorg, removed: w.depth < 0,
    }),
  },
  block: { target: 'network', depth: false, depthBody: null },
  double_spend: { target: 'address-or-txid', depth: false, depthBody: null },
  // A wallet's txs (issue 50): first sight from wallet_touched, then the first confirmation, the hook's `confirmations`
  // when more, and reorgs (webhook-watches.ts, walletWatchDecision).
  wallet: {
    target: 'wallet',
    depth: false,
    depthBody: (w: WatchedDepth) => ({
      event: 'wallet', network: w.network, wallet: w.wallet, txid: w.txid, confirmations: Math.max(w.depth, 0), reorg: w.reorg, removed: w.depth < 0,
    }),
  },
} as const satisfies Record<string, WebhookTypeEntry>;

export type WebhookType = keyof typeof WEBHOOK_CATALOGUE;

/** Every webhook type, in the catalogue's order (the order error messages and the API document list them in). */
export const WEBHOOK_TYPES = Object.keys(WEBHOOK_CATALOGUE) as readonly WebhookType[];

export function isWebhookType(value: string): value is WebhookType {
  return Object.hasOwn(WEBHOOK_CATALOGUE, value);
}

export function webhookTypeOf(type: WebhookType): WebhookTypeEntry {
  return WEBHOOK_CATALOGUE[type];
}
