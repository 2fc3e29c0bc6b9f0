import { amount, arr, bool, displaySuccess, failA, failB, int, nullable, nullableObj, num, obj, P, params, routeSchema, str, success } from '../../shared/schema-kit.js';

const txParams = params({ network: P.network, txid: P.txid }, ['network', 'txid']);
export const inputItem = { input_no: int, value: amount, address: str, type: str, script: str, from_output: obj({ txid: str, output_no: int }) };
export const outputItem = { output_no: int, value: amount, address: str, type: str, script: str };
const spentRef = nullableObj({ txid: str, input_no: int });

export const confidenceSchema = routeSchema({
  summary: 'Confidence that a transaction confirms (1.0 when confirmed)',
  tag: 'transaction',
  params: txParams,
  ok: success(obj({ network: str, txid: str, confidence: num, confirmations: int, nodes: nullable('integer'), nodes_sampled: nullable('integer'), is_double_spend: nullable('boolean') })),
  fail: failA,
});

export const inputsSchema = routeSchema({
  summary: 'Inputs of a transaction (optionally one)',
  tag: 'transaction',
  params: params({ network: P.network, txid: P.txid, input_no: P.index }, ['network', 'txid']),
  ok: success(obj({ network: str, txid: str, inputs: arr(obj(inputItem)) })),
  fail: failA,
});

export const outputsSchema = routeSchema({
  summary: 'Outputs of a transaction (one object when an output number is given)',
  tag: 'transaction',
  params: params({ network: P.network, txid: P.txid, output_no: P.index }, ['network', 'txid']),
  ok: success(obj({ network: str, txid: str, outputs: { anyOf: [arr(obj(outputItem)), obj(outputItem)] } })),
  fail: failA,
});

const fullInput = obj({ ...inputItem, witness: arr(str) });

export const txSchema = routeSchema({
  summary: 'A transaction',
  tag: 'transaction',
  params: txParams,
  ok: success(obj({
    network: str, txid: str, blockhash: nullable('string'), confirmations: int, time: int,
    inputs: arr(fullInput), outputs: arr(obj(outputItem)), tx_hex: str, size: int, version: int, locktime: int,
  })),
  fail: failA,
});

export const confirmedSchema = routeSchema({
  summary: 'Whether a transaction is confirmed (a coinbase needs 240 confirmations)',
  tag: 'transaction',
  params: txParams,
  ok: success(obj({ network: str, txid: str, confirmations: int, is_confirmed: bool })),
  fail: failA,
});

export const isSpentSchema = routeSchema({
  summary: 'Whether an output is spent, and by which input',
  tag: 'transaction',
  params: params({ network: P.network, txid: P.txid, output_no: P.index }, ['network', 'txid', 'output_no']),
  ok: success(obj({ network: str, txid: str, output_no: int, is_spent: bool, spent: spentRef })),
  fail: failA,
});

export const txDisplaySchema = routeSchema({
  summary: 'Transaction page: fee, value sent, inputs and outputs with spenders, double spend and the txs it conflicts with',
  tag: 'display',
  params: txParams,
  ok: displaySuccess(obj({
    network: str, txid: str, blockhash: nullable('string'), block_no: nullable('integer'), confirmations: int, time: int,
    sent_value: amount, fee: amount, inputs: arr(fullInput), outputs: arr(obj({ ...outputItem, spent: spentRef })), tx_hex: str,
    is_double_spend: nullable('boolean'), conflicting_txids: arr(str),
  })),
  fail: failB,
});

export const sendTxSchema = routeSchema({
  summary: 'Broadcast a signed transaction (JSON body or form field tx_hex)',
  tag: 'transaction',
  params: params({ network: P.network }, ['network']),
  ok: obj({ status: { type: 'string', enum: ['success'] }, data: obj({ network: str, txid: str }), network: str, txid: str }),
  fail: failA,
});
