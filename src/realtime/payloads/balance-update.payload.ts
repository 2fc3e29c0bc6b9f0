import { formatCoins, type AddressTouchedEvent, type PrevoutInfo, type Transaction } from '../../core/index.js';
import { scriptToAsm, type NetworkParams } from '../../chains/addressing.js';
import { inputViews, outputViews } from '../../services/transactions/tx-views.js';
import { toHex } from '../../chains/hash.js';

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

/**
 * Built once per event, shared by every spelling of the address that listens. The items are v2 get_tx's, so a
 * client handles one shape (the prevouts come with the event: the fan-out never touches the store).
 */
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
