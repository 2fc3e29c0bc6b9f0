import type { BlockConnectedEvent } from '../core/index.js';
import { getP2pkPubkey, pubkeyToP2pkhAddress, scriptToAddress, type NetworkParams } from '../chains/addressing.js';
import { difficultyFromBits } from '../chains/parsing.js';

export interface BlockUpdatePayload {
  readonly type: 'block';
  readonly value: {
    readonly size: number;
    /** An integer, as in the spec's sample payload (its field list says string). */
    readonly total_txs: number;
    readonly time: number;
    readonly blockhash: string;
    readonly block_no: number;
    readonly previous_blockhash: string;
    readonly merkleroot: string;
    readonly mined_by: string;
    readonly mining_difficulty: string;
  };
}

/** Pool tag from the coinbase text if there is one, else who was paid, else "unknown". */
export function minedBy(event: Pick<BlockConnectedEvent, 'coinbaseText' | 'minerScript'>, params: NetworkParams): string {
  const tag = event.coinbaseText.trim();
  if (tag !== '') return tag;
  if (event.minerScript) {
    const address = scriptToAddress(params, event.minerScript);
    if (address) return address;
    // Early blocks paid to a bare public key: explorers show that key's P2PKH address.
    const pubkey = getP2pkPubkey(event.minerScript);
    if (pubkey) return pubkeyToP2pkhAddress(params, pubkey);
  }
  return 'unknown';
}

/** `time` is when this service received the block (the spec's meaning), not the header time. */
export function blockUpdatePayload(event: BlockConnectedEvent, params: NetworkParams): BlockUpdatePayload {
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
      mined_by: minedBy(event, params),
      mining_difficulty: String(difficultyFromBits(event.bits)),
    },
  };
}
