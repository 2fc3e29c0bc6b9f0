import { amount, arr, bool, displaySuccess, failA, failB, int, nullable, obj, P, params, routeSchema, str, success } from '../../shared/schema-kit.js';

export const blockhashSchema = routeSchema({
  summary: 'Hash of the main-chain block at a height',
  tag: 'block',
  params: params({ network: P.network, block_no: P.index }, ['network', 'block_no']),
  ok: success(obj({ network: str, blockhash: str, block_no: int })),
  fail: failA,
});

const blockParams = params({ network: P.network, blockid: P.blockid }, ['network', 'blockid']);

export const blockSchema = routeSchema({
  summary: 'A block by hash or height',
  tag: 'block',
  params: blockParams,
  ok: success(obj({
    network: str, blockhash: str, block_no: int, mining_difficulty: str, time: int, confirmations: int, is_orphan: bool,
    txs: arr(str), merkleroot: str, previous_blockhash: str, next_blockhash: nullable('string'), size: int,
  })),
  fail: failA,
});

export const blockDisplaySchema = routeSchema({
  summary: 'Block page: value sent, fees and every transaction',
  tag: 'display',
  params: blockParams,
  ok: displaySuccess(obj({
    network: str, block_no: int, confirmations: int, time: int, sent_value: amount, fee: amount, mining_difficulty: str,
    size: int, blockhash: str, merkleroot: str, previous_blockhash: str, next_blockhash: nullable('string'), is_orphan: bool,
    txs: arr(obj({ txid: str, fee: nullable('string'), sent_value: amount, inputs: int, outputs: int })),
  })),
  fail: failB,
});
