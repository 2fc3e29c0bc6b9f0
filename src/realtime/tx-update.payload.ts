import type { TxAcceptedEvent } from '../core/index.js';
import { toHex } from './hex.js';

export interface TxUpdatePayload {
  readonly type: 'tx';
  readonly value: {
    readonly unconfirmed_txs: number;
    readonly total_inputs: string;
    readonly total_outputs: string;
    readonly time: number;
    readonly tx_hex: string;
    /** A JSON number of coins, as the spec has it: display precision, not an amount to compute with. */
    readonly sent_value: number;
    readonly txpm: number;
    readonly txid: string;
  };
}

const COIN = 100_000_000;

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
      sent_value: Number(sent) / COIN,
      txpm: Math.round(txpm * 100) / 100,
      txid: event.tx.txid,
    },
  };
}
