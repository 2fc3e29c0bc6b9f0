import { arr, bool, nullable, obj } from '../../shared/schema-kit.js';
import { amount, int, priceObject, str, V3P, v3Params, v3Route } from './v3-schema-kit.js';

const netParams = v3Params({ network: V3P.network }, ['network']);

export const latestBlocksSchema = v3Route({
  summary: 'The last 10 blocks, newest first',
  tag: 'block',
  params: netParams,
  data: obj({
    blocks: arr(obj({
      height: int, miner: str, miner_tag: nullable('string'), time: int, num_txs: int, difficulty: str, size: int, weight: int, version: int, reward_and_fees: amount, price: priceObject,
    })),
  }),
});

export const blockSchema = v3Route({
  summary: 'A block by hash (main chain or orphaned) or height (main chain)',
  tag: 'block',
  params: v3Params({ network: V3P.network, block: V3P.blockid }, ['network', 'block']),
  data: obj({
    hash: str, height: int, previous_block_hash: str, next_block_hash: nullable('string'), is_orphan: bool, difficulty: str, time: int,
    confirmations: int, merkleroot: str, num_txs: int, reward: amount, fees: amount, value_out: amount, version: int, nonce: int, bits: str,
    txs: arr(str), size: int, weight: int, price: priceObject,
  }),
});

export const bestBlockHashSchema = v3Route({ summary: 'Hash of the last indexed block', tag: 'block', params: netParams, data: obj({ hash: str }) });
