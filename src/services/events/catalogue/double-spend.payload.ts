import type { DoubleSpendEvent } from '../../../core/index.js';

/**
 * `double_spend` (an extension of the interface, docs/realtime.md): another transaction spends coins this one spends.
 * On `address_{network}_{address}` channels `value.address` is the channel's spelling; on `blockchain_update_{network}`
 * there is no address.
 */
export interface DoubleSpendPayload {
  readonly type: 'double_spend';
  readonly value: {
    readonly address?: string;
    readonly txid: string;
    readonly conflicting_txids: readonly string[];
    readonly reason: DoubleSpendEvent['reason'];
    readonly seen_in: DoubleSpendEvent['seenIn'];
    readonly outpoints: readonly { readonly txid: string; readonly output_no: number }[];
    readonly time: number;
  };
}

export function doubleSpendPayload(event: DoubleSpendEvent, address?: string): DoubleSpendPayload {
  return {
    type: 'double_spend',
    value: {
      ...(address !== undefined ? { address } : {}),
      txid: event.txid,
      conflicting_txids: event.conflictingTxids,
      reason: event.reason,
      seen_in: event.seenIn,
      outpoints: event.outpoints.map((o) => ({ txid: o.txid, output_no: o.vout })),
      time: event.time,
    },
  };
}
