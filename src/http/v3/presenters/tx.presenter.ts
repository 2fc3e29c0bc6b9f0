import type { PriceQuote } from '../../../core/domain/prices.js';
import type { TxInputView, TxOutputView, TxView } from '../../../services/transactions/tx-service.js';
import { addressText, asm, coins, hex, sigAsm } from '../../shared/format.presenter.js';
import { priceObject } from './price.presenter.js';

/** A coinbase input: address "coinbase", value 0, scriptSig the coinbase data (asm as hex), previous_output zeros/4294967295. */
function input(i: TxInputView) {
  return {
    index: i.index,
    value: coins(i.value ?? 0n),
    address: i.coinbase ? 'coinbase' : i.prevDescription ? addressText(i.prevDescription) : 'unknown',
    scriptSig: { hex: hex(i.scriptSig), asm: i.coinbase ? hex(i.scriptSig) : sigAsm(i.scriptSig) },
    witness: i.witness.map(hex),
    previous_output: { hash: i.prevTxid, index: i.prevVout },
  };
}

function output(o: TxOutputView) {
  return {
    index: o.index,
    value: coins(o.value),
    type: o.description.type,
    address: addressText(o.description),
    script: { hex: hex(o.script), asm: asm(o.script) },
    spent: o.spentBy ? { hash: o.spentBy.txid, index: o.spentBy.vin } : null,
  };
}

export function transactionData(v: TxView, price: PriceQuote | null) {
  const inputsValue = v.inputs.reduce((sum, i) => sum + (i.value ?? 0n), 0n);
  return {
    hash: v.record.txid,
    confirmations: v.confirmations,
    size: v.record.size,
    vsize: v.record.vsize,
    weight: v.record.weight,
    version: v.tx.version,
    locktime: v.tx.locktime,
    block_hash: v.blockHash,
    block_height: v.blockHeight,
    time: v.record.time,
    inputs_n: v.inputs.length,
    inputs_value: coins(inputsValue),
    outputs_n: v.outputs.length,
    outputs_value: coins(v.sentValue),
    inputs: v.inputs.map(input),
    outputs: v.outputs.map(output),
    fee: coins(v.fee),
    price: priceObject(price),
  };
}
