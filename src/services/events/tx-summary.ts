/**
 * A tx as its address events show it (`balance_update`'s `value.tx`): its inputs and outputs exactly as v2 get_tx
 * shows them, so a client handles one shape. The live router builds it from the event (the prevouts come with it:
 * the fan-out never touches the store); the catch-up feed rebuilds it from the index for confirmed txs, which the
 * event log keeps as a txid only (docs/realtime.md, Catch-up).
 */
import { formatCoins, type PrevoutInfo, type Transaction } from '../../core/index.js';
import { scriptToAsm, type NetworkParams } from '../../chains/addressing.js';
import { toHex } from '../../chains/hash.js';
import { inputViews, outputViews } from '../transactions/tx-views.js';

/** An input exactly as v2 get_tx shows it (src/http/v2/presenters/tx.presenter.ts; the e2e test compares them). */
export interface TxSummaryInput {
  readonly input_no: number;
  /** The spent output's value; "0.00000000" for a coinbase input. */
  readonly value: string;
  /** "coinbase"; the spent output's address, or its script type when it pays none; "unknown" if not looked up. */
  readonly address: string;
  readonly type: string;
  /** scriptSig assembly (a coinbase input: its data in hex). */
  readonly script: string;
  /** A coinbase input points at 000…0 / 4294967295, as the transaction encodes it. */
  readonly from_output: { readonly txid: string; readonly output_no: number };
  readonly witness: readonly string[];
}

/** An output exactly as v2 get_tx shows it. */
export interface TxSummaryOutput {
  readonly output_no: number;
  readonly value: string;
  /** The address, or the script type for outputs no address pays (e.g. "nulldata"). */
  readonly address: string;
  readonly type: string;
  readonly script: string;
}

export interface TxSummary {
  readonly txid: string;
  readonly inputs: readonly TxSummaryInput[];
  readonly outputs: readonly TxSummaryOutput[];
}

/** Built once per tx, shared by every address event of it and every spelling of the address that listens. */
export function txSummary(tx: Transaction, params: NetworkParams, prevouts: readonly (PrevoutInfo | null)[] | null): TxSummary {
  return {
    txid: tx.txid,
    inputs: inputViews(params, tx, prevouts).map((i) => ({
      input_no: i.index,
      value: formatCoins(i.value ?? 0n),
      address: i.coinbase ? 'coinbase' : i.prevDescription ? (i.prevDescription.address ?? i.prevDescription.type) : 'unknown',
      type: i.coinbase ? 'coinbase' : (i.prevDescription?.type ?? 'unknown'),
      script: i.coinbase ? toHex(i.scriptSig) : scriptToAsm(i.scriptSig, { sighashDecode: true }),
      from_output: { txid: i.prevTxid, output_no: i.prevVout },
      witness: i.witness.map(toHex),
    })),
    outputs: outputViews(params, tx, null).map((o) => ({
      output_no: o.index,
      value: formatCoins(o.value),
      address: o.description.address ?? o.description.type,
      type: o.description.type,
      script: scriptToAsm(o.script),
    })),
  };
}

/**
 * The summary of the tx asked for last: a tx's address events come one after another (one per address it touches),
 * and a payout to 5,000 addresses would otherwise build its 5,000-output summary 5,000 times (quadratic: a block with
 * such a tx ran `outpoint serve` out of memory). Same tx object and prevouts: the same summary object.
 */
export class LastTxSummary {
  private tx: Transaction | null = null;
  private prevouts: readonly (PrevoutInfo | null)[] | null = null;
  private summary: TxSummary | null = null;
  private text: string | null = null;

  of(tx: Transaction, params: NetworkParams, prevouts: readonly (PrevoutInfo | null)[] | null): TxSummary {
    if (this.summary === null || tx !== this.tx || prevouts !== this.prevouts) {
      this.summary = txSummary(tx, params, prevouts);
      this.text = null;
      this.tx = tx;
      this.prevouts = prevouts;
    }
    return this.summary;
  }

  /** The same summary as JSON text, stringified once per tx (the event log stores it). */
  jsonOf(tx: Transaction, params: NetworkParams, prevouts: readonly (PrevoutInfo | null)[] | null): string {
    const summary = this.of(tx, params, prevouts);
    return (this.text ??= JSON.stringify(summary));
  }
}
