import { amount, arr, bool, displayRoute, int, nullable, obj, P, params, shapeARoute, str } from '../../shared/schema-kit.js';

export const blockhashSchema = shapeARoute('block', 'Hash of the main-chain block at a height',
  params({ network: P.network, block_no: P.index }, ['network', 'block_no']), obj({ network: str, blockhash: str, block_no: int }));

const blockParams = params({ network: P.network, blockid: P.blockid }, ['network', 'blockid']);

export const blockSchema = shapeARoute('block', 'A block by hash or height', blockParams, obj({
  network: str, blockhash: str, block_no: int, mining_difficulty: str, time: int, confirmations: int, is_orphan: bool,
  txs: arr(str), merkleroot: str, previous_blockhash: str, next_blockhash: nullable('string'), size: int,
}));

export const blockDisplaySchema = displayRoute('Block page: value sent, fees and every transaction', blockParams, obj({
  network: str, block_no: int, confirmations: int, time: int, sent_value: amount, fee: amount, mining_difficulty: str,
  size: int, blockhash: str, merkleroot: str, previous_blockhash: str, next_blockhash: nullable('string'), is_orphan: bool,
  txs: arr(obj({ txid: str, fee: nullable('string'), sent_value: amount, inputs: int, outputs: int })),
}));
