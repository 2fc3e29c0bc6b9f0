import type { TxConfidence } from '../../../services/transactions/confidence-service.js';
import type { DoubleSpendVerdict } from '../../../services/transactions/double-spend-verdict.js';
import type { TxInputView, TxOutputView, TxView } from '../../../services/transactions/tx-service.js';
import { addressText, asm, coins, hex, sigAsm } from '../../shared/format.presenter.js';

/** A coinbase input has no prevout: address and type say "coinbase", the script is the raw coinbase data. */
export function inputItem(i: TxInputView) {
  return {
    input_no: i.index,
    value: coins(i.value ?? 0n),
    address: i.coinbase ? 'coinbase' : i.prevDescription ? addressText(i.prevDescription) : 'unknown',
    type: i.coinbase ? 'coinbase' : (i.prevDescription?.type ?? 'unknown'),
    script: i.coinbase ? hex(i.scriptSig) : sigAsm(i.scriptSig),
    from_output: { txid: i.prevTxid, output_no: i.prevVout },
  };
}

export function outputItem(o: TxOutputView) {
  return { output_no: o.index, value: coins(o.value), address: addressText(o.description), type: o.description.type, script: asm(o.script) };
}

const withWitness = (i: TxInputView) => ({ ...inputItem(i), witness: i.witness.map(hex) });
const withSpent = (o: TxOutputView) => ({ ...outputItem(o), spent: o.spentBy ? { txid: o.spentBy.txid, input_no: o.spentBy.vin } : null });

export const inputsData = (v: TxView, only?: TxInputView) => ({
  network: v.network.id,
  txid: v.record.txid,
  inputs: (only ? [only] : v.inputs).map(inputItem),
});

/** The spec's example returns one object when an output number is given, else the array. */
export const outputsData = (v: TxView, only?: TxOutputView) => ({
  network: v.network.id,
  txid: v.record.txid,
  outputs: only ? outputItem(only) : v.outputs.map(outputItem),
});

export const txData = (v: TxView) => ({
  network: v.network.id,
  txid: v.record.txid,
  blockhash: v.blockHash,
  confirmations: v.confirmations,
  time: v.record.time,
  inputs: v.inputs.map(withWitness),
  outputs: v.outputs.map(outputItem),
  tx_hex: hex(v.raw),
  size: v.record.size,
  version: v.tx.version,
  locktime: v.tx.locktime,
});

/** `doubleSpend`: TxService.doubleSpend's verdict; like get_confidence, is_double_spend is null once confirmed. */
export const txDisplayData = (v: TxView, doubleSpend: DoubleSpendVerdict) => ({
  network: v.network.id,
  txid: v.record.txid,
  blockhash: v.blockHash,
  block_no: v.blockHeight,
  confirmations: v.confirmations,
  time: v.record.time,
  sent_value: coins(v.sentValue),
  fee: coins(v.fee),
  inputs: v.inputs.map(withWitness),
  outputs: v.outputs.map(withSpent),
  tx_hex: hex(v.raw),
  is_double_spend: v.isConfirmed ? null : doubleSpend.doubleSpent,
  conflicting_txids: doubleSpend.conflictingTxids,
});

export const confirmedData = (v: { network: { id: string }; record: { txid: string }; confirmations: number; isConfirmed: boolean }) => ({
  network: v.network.id,
  txid: v.record.txid,
  confirmations: v.confirmations,
  is_confirmed: v.isConfirmed,
});

export const spentData = (v: TxView, o: TxOutputView) => ({
  network: v.network.id,
  txid: v.record.txid,
  output_no: o.index,
  is_spent: o.spentBy !== null,
  spent: o.spentBy ? { txid: o.spentBy.txid, input_no: o.spentBy.vin } : null,
});

export const confidenceData = (c: TxConfidence) => ({
  network: c.network.id,
  txid: c.txid,
  confidence: c.confidence,
  confirmations: c.confirmations,
  nodes: c.nodes,
  nodes_sampled: c.nodesSampled,
  is_double_spend: c.isDoubleSpend,
});
