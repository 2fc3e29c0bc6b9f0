/** Turns what a driver read about one transaction into a TxRecord, the same way for every engine. */
import { IN_NO_BLOCK, type BlockHeaderRecord, type BlockRecord, type TxRecord } from '../../../core/store/chain-reads.js';
import type { PrevoutInfo } from '../../../core/domain/chain-types.js';
import { bytesToHex, type StoredPrevout } from '../schema/codec.js';

/** A row as a driver returns it: integers may be number, bigint or string, flags 0/1 or booleans. */
export type StoredRow = Record<string, unknown>;

const int = (value: unknown): number => Number(value);
const flag = (value: unknown): boolean => value === true || value === 1 || value === 1n;

/** The block a stored tx belongs to (found by its id range). */
export interface BlockOfTx {
  readonly hash: string;
  readonly height: number;
  readonly time: number;
  readonly isOrphan: boolean;
  readonly firstTx: number;
}

export interface ChainTxRow {
  readonly id: number;
  readonly raw: Uint8Array | null;
  readonly size: number;
  readonly weight: number;
  readonly firstSeen: number | null;
}

/** The columns of a txs row that every engine reads alike. */
export function storedChainTxRow(row: StoredRow): ChainTxRow {
  return {
    id: int(row['id']), raw: row['raw'] as Uint8Array | null, size: int(row['size']), weight: int(row['weight']),
    firstSeen: row['first_seen'] === null ? null : int(row['first_seen']),
  };
}

/** A blocks row with its txids (in order) and the hash of the main-chain block after it. */
export function storedBlockRecord(row: StoredRow, txids: string[], nextHash: string | null): BlockRecord {
  return { ...storedBlockHeader(row), txids, nextHash };
}

export function storedBlockHeader(row: StoredRow): BlockHeaderRecord {
  return {
    hash: bytesToHex(row['hash'] as Uint8Array), height: int(row['height']), prevHash: bytesToHex(row['prev_hash'] as Uint8Array),
    merkleRoot: bytesToHex(row['merkle_root'] as Uint8Array), version: int(row['version']), time: int(row['time']), bits: int(row['bits']),
    nonce: int(row['nonce']), size: int(row['size']), strippedSize: int(row['stripped_size']), weight: int(row['weight']),
    txCount: int(row['tx_count']), isOrphan: flag(row['is_orphan']),
    fees: BigInt(row['fees'] as string), reward: BigInt(row['reward'] as string), valueOut: BigInt(row['value_out'] as string),
  };
}

/** A tx of a block: confirmed when the block is on the main chain, else orphaned. */
export function chainTxRecord(
  txid: string, row: ChainTxRow, block: BlockOfTx, prevouts: readonly (PrevoutInfo | null)[], fee: bigint | null,
): TxRecord {
  const confirmed = !block.isOrphan;
  return {
    txid,
    raw: row.raw,
    status: confirmed ? 'confirmed' : 'orphaned',
    height: confirmed ? block.height : null,
    blockHash: block.hash,
    blockTime: block.time,
    position: row.id - block.firstTx,
    seenAt: row.firstSeen,
    time: confirmed ? block.time : (row.firstSeen ?? block.time),
    fee,
    size: row.size,
    vsize: Math.ceil(row.weight / 4),
    weight: row.weight,
    isCoinbase: row.id === block.firstTx,
    doubleSpent: false,
    prevouts,
  };
}

/** A mempool row (live or removed); `scripts` holds the bytes of its prevouts' script keys. */
export function mempoolTxRecord(
  txid: string, m: StoredRow, stored: readonly (StoredPrevout | null)[], scripts: ReadonlyMap<number, Uint8Array>,
): TxRecord {
  const seenAt = int(m['seen_at']);
  const weight = int(m['weight']);
  return {
    ...IN_NO_BLOCK,
    txid,
    raw: m['raw'] as Uint8Array,
    status: flag(m['removed']) ? 'removed' : 'mempool',
    seenAt,
    time: seenAt,
    fee: BigInt(m['fee'] as string | number | bigint),
    size: int(m['size']),
    vsize: Math.ceil(weight / 4),
    weight,
    isCoinbase: false,
    doubleSpent: flag(m['double_spent']),
    prevouts: stored.map((p) => (p ? { txid: p.txid, vout: p.vout, value: p.value, script: scripts.get(p.scriptId)! } : null)),
  };
}
