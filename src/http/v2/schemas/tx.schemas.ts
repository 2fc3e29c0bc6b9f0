import {
  amount, arr, bool, displayRoute, failA, int, nullable, nullableObj, num, obj, P, params, routeSchema, shapeARoute, str,
} from '../../shared/schema-kit.js';

const txParams = params({ network: P.network, txid: P.txid }, ['network', 'txid']);
export const inputItem = { input_no: int, value: amount, address: str, type: str, script: str, from_output: obj({ txid: str, output_no: int }) };
export const outputItem = { output_no: int, value: amount, address: str, type: str, script: str };
const spentRef = nullableObj({ txid: str, input_no: int });

export const confidenceSchema = shapeARoute('transaction', 'Confidence that a transaction confirms (1.0 when confirmed)', txParams, obj({
  network: str, txid: str, confidence: num, confirmations: int, nodes: nullable('integer'), nodes_sampled: nullable('integer'),
  is_double_spend: nullable('boolean'),
}));

export const inputsSchema = shapeARoute('transaction', 'Inputs of a transaction (optionally one)',
  params({ network: P.network, txid: P.txid, input_no: P.index }, ['network', 'txid']),
  obj({ network: str, txid: str, inputs: arr(obj(inputItem)) }));

export const outputsSchema = shapeARoute('transaction', 'Outputs of a transaction (one object when an output number is given)',
  params({ network: P.network, txid: P.txid, output_no: P.index }, ['network', 'txid']),
  obj({ network: str, txid: str, outputs: { anyOf: [arr(obj(outputItem)), obj(outputItem)] } }));

const fullInput = obj({ ...inputItem, witness: arr(str) });

export const txSchema = shapeARoute('transaction', 'A transaction', txParams, obj({
  network: str, txid: str, blockhash: nullable('string'), confirmations: int, time: int,
  inputs: arr(fullInput), outputs: arr(obj(outputItem)), tx_hex: str, size: int, version: int, locktime: int,
}));

export const confirmedSchema = shapeARoute('transaction', 'Whether a transaction is confirmed (a coinbase needs 240 confirmations)', txParams,
  obj({ network: str, txid: str, confirmations: int, is_confirmed: bool }));

export const isSpentSchema = shapeARoute('transaction', 'Whether an output is spent, and by which input',
  params({ network: P.network, txid: P.txid, output_no: P.index }, ['network', 'txid', 'output_no']),
  obj({ network: str, txid: str, output_no: int, is_spent: bool, spent: spentRef }));

export const txDisplaySchema = displayRoute(
  'Transaction page: fee, value sent, inputs and outputs with spenders, double spend and the txs it conflicts with', txParams,
  obj({
    network: str, txid: str, blockhash: nullable('string'), block_no: nullable('integer'), confirmations: int, time: int,
    sent_value: amount, fee: amount, inputs: arr(fullInput), outputs: arr(obj({ ...outputItem, spent: spentRef })), tx_hex: str,
    is_double_spend: nullable('boolean'), conflicting_txids: arr(str),
  }),
);

export const sendTxSchema = routeSchema({
  summary: 'Broadcast a signed transaction (JSON body or form field tx_hex)',
  tag: 'transaction',
  params: params({ network: P.network }, ['network']),
  ok: obj({ status: { type: 'string', enum: ['success'] }, data: obj({ network: str, txid: str }), network: str, txid: str }),
  fail: failA,
});
