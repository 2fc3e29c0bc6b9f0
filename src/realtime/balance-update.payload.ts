import { formatCoins, type AddressTouchedEvent, type PrevoutInfo, type Transaction } from '../core/index.js';
import { classifyScript, displayAddress, scriptToAsm, type NetworkParams } from '../chains/addressing.js';

/**
 * Inputs as in v2's get_tx: the spent output's address and value come with the event (the indexer
 * reads them once per announced tx), so the fan-out path never touches the store.
 */
export interface TxSummaryInput {
  readonly input_no: number;
  readonly from_output: { readonly txid: string; readonly output_no: number } | null;
  /** "coinbase" for a newly generated-coin input (as in v2); null when the spent output pays no address. */
  readonly address: string | null;
  /** Value of the spent output; null for a coinbase input. */
  readonly value: string | null;
  readonly script: string;
}

export interface TxSummaryOutput {
  readonly output_no: number;
  readonly value: string;
  /** null for outputs no address pays (OP_RETURN, bare multisig, nonstandard). */
  readonly address: string | null;
  readonly type: string;
  readonly script: string;
}

export interface TxSummary {
  readonly txid: string;
  readonly inputs: readonly TxSummaryInput[];
  readonly outputs: readonly TxSummaryOutput[];
}

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

/** Built once per event, shared by every spelling of the address that listens. */
export function txSummary(tx: Transaction, params: NetworkParams, prevouts: readonly (PrevoutInfo | null)[] | null): TxSummary {
  return {
    txid: tx.txid,
    inputs: tx.inputs.map((input, i) => {
      const prevout = prevouts?.[i] ?? null;
      return {
        input_no: i,
        from_output: tx.isCoinbase ? null : { txid: input.prevTxid, output_no: input.prevVout },
        address: tx.isCoinbase ? 'coinbase' : prevout ? displayAddress(params, prevout.script) : null,
        value: prevout ? formatCoins(prevout.value) : null,
        script: scriptToAsm(input.scriptSig, { sighashDecode: true }),
      };
    }),
    outputs: tx.outputs.map((output, i) => ({
      output_no: i,
      value: formatCoins(output.value),
      address: displayAddress(params, output.script),
      type: classifyScript(output.script, params.features),
      script: scriptToAsm(output.script),
    })),
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
