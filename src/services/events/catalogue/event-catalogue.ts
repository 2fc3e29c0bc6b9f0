import { formatCoins } from '../../../core/domain/money.js';
import type { DomainEvent } from '../../../core/domain/events.js';
import type { NetworkId } from '../../../core/domain/network.js';
import type { LoggedChannelEvent } from '../../../core/store/event-log-store.js';
import { balanceUpdatePayload } from './balance-update.payload.js';
import { blockUpdatePayload } from './block-update.payload.js';
import { doubleSpendPayload } from './double-spend.payload.js';
import type { ElectrumChange } from './electrum-change.js';
import { addressKey, blockchainChannel, BLOCKCHAIN_KEY, tickerChannel, txSummaryKey, walletChannel, walletKey } from './event-channels.js';
import { priceUpdatePayload } from './price-update.payload.js';
import type { RenderState } from './render-state.js';
import { txUpdatePayload } from './tx-update.payload.js';
import type { WebhookType } from './webhook-types.js';
import { walletEventName, walletTxValue, walletUpdatePayload } from './wallet-update.payload.js';

/**
 * Where a domain event's live channel events go, as the realtime fan-out offers it: a payload is built only when its
 * channel has subscribers in this process (and once per channel, whatever their number).
 */
export interface LiveOut {
  /** One named channel. */
  channel(name: string, event: string, payload: () => object): void;
  /** The address channels of these scripts, each spelling once; the payload gets the channel's spelling of the address. */
  addresses(network: NetworkId, scripts: readonly Uint8Array[], event: string, payload: (address: string) => object): void;
}

/**
 * What one kind of domain event is to the outside: its channel events live and as logged, its webhook deliveries, and
 * what it changes for Electrum subscriptions.
 */
export interface EventKind<E extends DomainEvent> {
  /** Its channel events as they go out live (docs/realtime.md); null: none. */
  readonly live: ((event: E, out: LiveOut, state: RenderState) => void) | null;
  /**
   * Its channel events as the event log keeps them for the catch-up feed (core/store/event-log-store.ts): for every
   * channel, listened to now or not; null: not logged (no catch-up for it).
   */
  readonly logged: ((event: E, state: RenderState) => readonly LoggedChannelEvent[]) | null;
  /** The webhook types it can make deliveries for (docs/webhooks.md); none: the matcher does not take it up. */
  readonly webhooks: readonly WebhookType[];
  /** The body of the delivery it makes to a matching hook (`confirmations`: the tx's depth now); null: it makes none itself. */
  readonly webhookBody: ((event: E, hook: { readonly address: string | null }, confirmations: number) => Record<string, unknown>) | null;
  /** What it changes for the Electrum server's subscriptions (scripthash statuses, headers; docs/electrum.md); null: nothing. */
  readonly electrum: ((event: E) => ElectrumChange | null) | null;
}

type Catalogue = { readonly [K in DomainEvent['kind']]: EventKind<Extract<DomainEvent, { readonly kind: K }>> };

/**
 * Every kind of domain event (core/domain/events.ts), one entry each: a new kind is one entry here, and realtime, the
 * event log, the catch-up feed, webhooks and the Electrum server follow it. Disconnected blocks and removed txs have no channel event in
 * the interface; they reach webhooks as changes of depth, judged by the matcher.
 */
export const EVENT_CATALOGUE = {
  block_connected: {
    live: (event, out) => out.channel(blockchainChannel(event.network), 'block_update', () => blockUpdatePayload(event)),
    logged: (event) => [{ channelKey: BLOCKCHAIN_KEY, event: 'block_update', payload: JSON.stringify(blockUpdatePayload(event)) }],
    // `block` hooks get the block; watched txs (address, tx_confirmations) are judged at every block.
    webhooks: ['block', 'tx_confirmations', 'address', 'wallet'],
    webhookBody: (event) => ({
      event: 'block', network: event.network, blockhash: event.hash, block_no: event.height, previous_blockhash: event.prevHash,
      time: event.receivedAt, total_txs: event.txCount, size: event.size,
    }),
    electrum: (event) => ({ kind: 'block', network: event.network, height: event.height, hash: event.hash }),
  },
  // A reorg may change any status: the Electrum server recomputes those of scripts it cannot rule out.
  block_disconnected: {
    live: null, logged: null, webhooks: ['tx_confirmations', 'address', 'wallet'], webhookBody: null,
    electrum: (event) => ({ kind: 'reorg', network: event.network, height: event.height }),
  },
  tx_accepted: {
    live: (event, out, state) => {
      // Counted whether or not anyone listens: the rate is over every accepted tx.
      const rate = state.recordTx(event.network);
      out.channel(blockchainChannel(event.network), 'tx_update', () => txUpdatePayload(event, rate.perMinute(state.nowMs())));
    },
    logged: (event, state) => {
      const rate = state.recordTx(event.network);
      return [{ channelKey: BLOCKCHAIN_KEY, event: 'tx_update', payload: JSON.stringify(txUpdatePayload(event, rate.perMinute(state.nowMs()))) }];
    },
    // A mempool tx reaches hooks through its address_touched events (one per address), which follow it.
    webhooks: [],
    webhookBody: null,
    electrum: (event) => ({ kind: 'scripts', network: event.network, scripts: event.deltas.map((d) => d.script) }),
  },
  // Confirmed, replaced, evicted or conflicted: every script of the tx changed status.
  tx_removed: { live: null, logged: null, webhooks: [], webhookBody: null, electrum: (event) => ({ kind: 'tx-gone', network: event.network, txid: event.txid }) },
  address_touched: {
    live: (event, out, state) => out.addresses(event.network, [event.delta.script], 'balance_update', (address) =>
      balanceUpdatePayload(address, event, state.summaries.of(event.tx, state.params(event.network), event.prevouts))),
    logged: (event, state) => {
      const { sent, received } = event.delta;
      const amounts = { value_sent: formatCoins(sent), value_received: formatCoins(received), balance_change: formatCoins(received - sent) };
      if (event.confirmed) {
        // A tx first seen in a block is in the index for good (a reorg keeps it as orphaned): the log keeps its txid
        // and the feed rebuilds its inputs and outputs from the index (services/events/feed-tx-summaries.ts). Rendering
        // and logging every block tx's summary took ~0.4 s of a 2,000-tx block's connect (docs/benchmarks.md).
        return [{ channelKey: addressKey(event.delta.script), event: 'balance_update', payload: loggedBalance(amounts, { $txid: event.txid }) }];
      }
      // A mempool tx may leave the index (replaced, evicted): its inputs and outputs are logged once per append as a
      // shared body (event-log-store.ts) that each of its address events points to, so clients read what they would
      // have live.
      const key = txSummaryKey(event.tx.txid);
      return [
        { channelKey: addressKey(event.delta.script), event: 'balance_update', payload: loggedBalance(amounts, { $ref: key }) },
        { channelKey: key, event: 'tx_summary', payload: state.summaries.jsonOf(event.tx, state.params(event.network), event.prevouts), shared: true },
      ];
    },
    webhooks: ['address'],
    webhookBody: (event, hook, confirmations) => {
      const { sent, received } = event.delta;
      return {
        event: 'address', network: event.network, address: hook.address, txid: event.txid, confirmations,
        value_received: formatCoins(received), value_sent: formatCoins(sent), balance_change: formatCoins(received - sent),
      };
    },
    electrum: (event) => ({ kind: 'scripts', network: event.network, scripts: [event.delta.script] }),
  },
  double_spend: {
    // On the network's blockchain channel, and once on each address channel of a script involved.
    live: (event, out) => {
      out.channel(blockchainChannel(event.network), 'double_spend', () => doubleSpendPayload(event));
      out.addresses(event.network, event.scripts, 'double_spend', (address) => doubleSpendPayload(event, address));
    },
    logged: (event) => {
      const payload = JSON.stringify(doubleSpendPayload(event));
      return [BLOCKCHAIN_KEY, ...event.scripts.map(addressKey)].map((channelKey) => ({ channelKey, event: 'double_spend', payload }));
    },
    // Wallet hooks hear of it through the wallet watcher's wallet_touched.
    webhooks: ['double_spend'],
    webhookBody: (event, hook) => ({
      event: 'double_spend', network: event.network, ...(hook.address ? { address: hook.address } : {}), txid: event.txid,
      conflicting_txids: event.conflictingTxids, reason: event.reason, seen_in: event.seenIn, time: event.time,
    }),
    electrum: (event) => ({ kind: 'scripts', network: event.network, scripts: event.scripts }),
  },
  wallet_touched: {
    // One event per tx and watched wallet (issue 50), on the wallet's channel; its webhook is the wallet hook's first delivery.
    live: (event, out) => out.channel(walletChannel(event.network, event.wallet), walletEventName(event), () => walletUpdatePayload(event)),
    logged: (event) => [{ channelKey: walletKey(event.wallet), event: walletEventName(event), payload: JSON.stringify(walletUpdatePayload(event)) }],
    webhooks: ['wallet'],
    webhookBody: (event, _hook, confirmations) => (event.doubleSpend
      ? { event: 'wallet', network: event.network, double_spend: true, ...walletTxValue(event), time: event.time }
      : { event: 'wallet', network: event.network, ...walletTxValue(event), confirmations }),
    // The scripts it touched have their own address events (tx_accepted, address_touched), which the Electrum server follows.
    electrum: null,
  },
  price: {
    live: (event, out) => out.channel(tickerChannel(event.coin, event.base), 'price_update', () => priceUpdatePayload(event)),
    // A price is a current value: a client reads the latest instead of catching up.
    logged: null,
    webhooks: [],
    webhookBody: null,
    electrum: null,
  },
} as const satisfies Catalogue;

/** The catalogue's entry of an event's kind. */
export function kindOf<E extends DomainEvent>(event: E): EventKind<E> {
  return EVENT_CATALOGUE[event.kind] as unknown as EventKind<E>;
}

/** A balance_update as logged: no `address` (the feed puts in the channel's spelling), `tx` a reference. */
function loggedBalance(amounts: Record<string, string>, tx: Record<string, string>): string {
  return JSON.stringify({ type: 'address', value: { ...amounts, tx } });
}
