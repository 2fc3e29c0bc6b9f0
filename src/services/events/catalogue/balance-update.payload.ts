import { formatCoins, type AddressTouchedEvent } from '../../../core/index.js';
import type { TxSummary } from '../tx-summary.js';

export interface BalanceUpdatePayload {
  readonly type: 'address';
  readonly value: {
    readonly address: string;
    readonly value_sent: string;
    readonly value_received: string;
    readonly balance_change: string;
    readonly tx: TxSummary;
  };
}

/** `address` is the channel's spelling (what the subscriber typed), not the canonical one. */
export function balanceUpdatePayload(address: string, event: AddressTouchedEvent, summary: TxSummary): BalanceUpdatePayload {
  const { sent, received } = event.delta;
  return {
    type: 'address',
    value: {
      address,
      value_sent: formatCoins(sent),
      value_received: formatCoins(received),
      balance_change: formatCoins(received - sent),
      tx: summary,
    },
  };
}
