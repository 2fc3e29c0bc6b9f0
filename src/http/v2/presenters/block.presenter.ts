import type { BlockDisplay, BlockView } from '../../../services/blocks/block-service.js';
import type { NetworkContext } from '../../../services/shared/network-registry.js';
import { coins, difficulty } from '../../shared/format.presenter.js';

export const blockhashData = (network: NetworkContext, hash: string, height: number) => ({ network: network.id, blockhash: hash, block_no: height });

export const blockData = (v: BlockView) => ({
  network: v.network.id,
  blockhash: v.block.hash,
  block_no: v.block.height,
  mining_difficulty: difficulty(v.difficulty),
  time: v.block.time,
  confirmations: v.confirmations,
  is_orphan: v.block.isOrphan,
  txs: [...v.block.txids],
  merkleroot: v.block.merkleRoot,
  previous_blockhash: v.block.prevHash,
  next_blockhash: v.block.nextHash,
  size: v.block.size,
});

export const blockDisplayData = (d: BlockDisplay) => ({
  network: d.network.id,
  block_no: d.block.height,
  confirmations: d.confirmations,
  time: d.block.time,
  sent_value: coins(d.block.valueOut),
  fee: coins(d.block.fees),
  mining_difficulty: difficulty(d.difficulty),
  size: d.block.size,
  blockhash: d.block.hash,
  merkleroot: d.block.merkleRoot,
  previous_blockhash: d.block.prevHash,
  next_blockhash: d.block.nextHash,
  is_orphan: d.block.isOrphan,
  txs: d.txs.map((t) => ({
    txid: t.txid,
    fee: t.fee === null ? null : coins(t.fee),
    sent_value: coins(t.sentValue),
    inputs: t.inputCount,
    outputs: t.outputCount,
  })),
});
