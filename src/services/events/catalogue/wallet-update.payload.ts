import { formatCoins } from '../../../core/domain/money.js';
import type { WalletTouchedEvent } from '../../../core/domain/events.js';

/** The amounts of one side of a wallet's tx, as v3 shows them (8-decimal strings). */
function amounts(received: bigint, sent: bigint): { value_received: string; value_sent: string; balance_change: string } {
  return { value_received: formatCoins(received), value_sent: formatCoins(sent), balance_change: formatCoins(received - sent) };
}

/**
 * What a tx was to a watched wallet (issue 50; docs/realtime.md, Wallet channels; docs/webhooks.md, wallet): its net
 * over the wallet (change and transfers between the wallet's own addresses cancel) and each of the wallet's
 * addresses it touched with its path. The value of the wallet channel's `balance_update` and the core of a wallet
 * webhook's first delivery.
 */
export function walletTxValue(event: WalletTouchedEvent): Record<string, unknown> {
  const ds = event.doubleSpend;
  if (ds) {
    return {
      wallet: event.wallet, txid: event.txid, conflicting_txids: ds.conflictingTxids, reason: ds.reason, seen_in: ds.seenIn,
      addresses: event.addresses.map((a) => ({ address: a.address, path: a.path })),
    };
  }
  return {
    wallet: event.wallet,
    txid: event.txid,
    ...amounts(event.received, event.sent),
    addresses: event.addresses.map((a) => ({ address: a.address, path: a.path, ...amounts(a.received, a.sent) })),
  };
}

/** The wallet channel's event name: `balance_update`, or `double_spend` for a double spend of one of its txs. */
export function walletEventName(event: WalletTouchedEvent): 'balance_update' | 'double_spend' {
  return event.doubleSpend ? 'double_spend' : 'balance_update';
}

/**
 * On `wallet_{network}_{checksum}`: `{type: "wallet", value}` for a tx first seen, `{type: "double_spend", value}` for
 * one double-spent or replaced (beside `event_id` when logged).
 */
export function walletUpdatePayload(event: WalletTouchedEvent): object {
  if (event.doubleSpend) return { type: 'double_spend', value: { ...walletTxValue(event), time: event.time } };
  return { type: 'wallet', value: { ...walletTxValue(event), confirmed: event.confirmed, time: event.time } };
}
