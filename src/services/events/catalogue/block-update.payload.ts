import type { BlockConnectedEvent } from '../../../core/index.js';
import { difficultyFromBits, formatDifficulty } from '../../../chains/parsing.js';

export interface BlockUpdatePayload {
  readonly type: 'block';
  readonly value: {
    readonly size: number;
    /** An integer, as in the interface's sample payload (its field list says string; docs/realtime.md). */
    readonly total_txs: number;
    readonly time: number;
    readonly blockhash: string;
    readonly block_no: number;
    readonly previous_blockhash: string;
    readonly merkleroot: string;
    readonly mined_by: string;
    /** 8 decimals, as REST's mining_difficulty. */
    readonly mining_difficulty: string;
  };
}

/**
 * The miner's name: the pool's coinbase tag; without one, who was paid (the address v3 gives as `miner`), else
 * "unknown". Both come from the indexer's one rule (chains blockMiner), so v3 and realtime agree on every block.
 */
export function minedBy(event: Pick<BlockConnectedEvent, 'minerTag' | 'minerAddress'>): string {
  return event.minerTag ?? event.minerAddress ?? 'unknown';
}

/** `time` is when this service received the block (the interface's meaning, docs/realtime.md), not the header time. */
export function blockUpdatePayload(event: BlockConnectedEvent): BlockUpdatePayload {
  return {
    type: 'block',
    value: {
      size: event.size,
      total_txs: event.txCount,
      time: event.receivedAt,
      blockhash: event.hash,
      block_no: event.height,
      previous_blockhash: event.prevHash,
      merkleroot: event.merkleRoot,
      mined_by: minedBy(event),
      mining_difficulty: formatDifficulty(difficultyFromBits(event.bits)),
    },
  };
}
