import { formatCoins, type TxAcceptedEvent } from '../../../core/index.js';
import { toHex } from '../../../chains/hash.js';

export interface TxUpdatePayload {
  readonly type: 'tx';
  readonly value: {
    readonly unconfirmed_txs: number;
    readonly total_inputs: string;
    readonly total_outputs: string;
    readonly time: number;
    readonly tx_hex: string;
    /** A JSON number of coins, as docs/realtime.md has it: the number nearest REST's 8-decimal string (display precision). */
    readonly sent_value: number;
    readonly txpm: number;
    readonly txid: string;
  };
}

export function txUpdatePayload(event: TxAcceptedEvent, txpm: number): TxUpdatePayload {
  const sent = event.tx.outputs.reduce((sum, o) => sum + o.value, 0n);
  return {
    type: 'tx',
    value: {
      unconfirmed_txs: event.mempoolSize,
      total_inputs: String(event.tx.inputs.length),
      total_outputs: String(event.tx.outputs.length),
      time: event.seenAt,
      tx_hex: toHex(event.tx.raw),
      sent_value: Number(formatCoins(sent)),
      txpm: Math.round(txpm * 100) / 100,
      txid: event.tx.txid,
    },
  };
}
