import type { PriceQuote } from '../../../core/domain/prices.js';
import type { BlockView } from '../../../services/blocks/block-service.js';
import type { BlockSummary } from '../../../services/network/chain-summary-service.js';
import { coins, difficulty } from '../../shared/format.presenter.js';
import { priceObject } from './price.presenter.js';

/** Compact target as Core prints it: 8 hex digits. */
const bitsHex = (bits: number): string => (bits >>> 0).toString(16).padStart(8, '0');

export const latestBlocksData = (blocks: readonly BlockSummary[], prices: ReadonlyMap<number, PriceQuote | null>) => ({
  blocks: blocks.map(({ block, miner, difficulty: d }) => ({
    height: block.height,
    // The spec: "address of miner, if determinable"; the pool's tag is the additive miner_tag.
    miner: miner?.address ?? '',
    miner_tag: miner?.tag ?? null,
    time: block.time,
    num_txs: block.txCount,
    difficulty: difficulty(d),
    size: block.size,
    weight: block.weight,
    version: block.version,
    reward_and_fees: coins(block.reward),
    price: priceObject(prices.get(block.time)),
  })),
});

/** `reward` is what the coinbase claimed beyond the fees (the subsidy), `fees` the fees, `value_out` all outputs. */
export const blockData = (v: BlockView, price: PriceQuote | null) => ({
  hash: v.block.hash,
  height: v.block.height,
  previous_block_hash: v.block.prevHash,
  next_block_hash: v.block.nextHash,
  is_orphan: v.block.isOrphan,
  difficulty: difficulty(v.difficulty),
  time: v.block.time,
  confirmations: v.confirmations,
  merkleroot: v.block.merkleRoot,
  num_txs: v.block.txCount,
  reward: coins(v.block.reward - v.block.fees),
  fees: coins(v.block.fees),
  value_out: coins(v.block.valueOut),
  version: v.block.version,
  nonce: v.block.nonce >>> 0,
  bits: bitsHex(v.block.bits),
  txs: [...v.block.txids],
  size: v.block.size,
  weight: v.block.weight,
  price: priceObject(price),
});
