/** Turns the stored rows of one transaction into a TxRecord, the same way for every engine. */
import type { TxRecord, TxStatus } from '../../core/store.js';
import { bytesToHex, unpackPrevouts, type StoredPrevout } from './codec.js';

/** A row as a driver returns it: integers may be number, bigint or string, flags 0/1 or booleans. */
export type StoredRow = Record<string, unknown>;

const int = (value: unknown): number => Number(value);
const flag = (value: unknown): boolean => value === true || value === 1 || value === 1n;

/**
 * `confirmedRow` is the txs row joined with its block's time (`block_time`), `mempoolRow` the mempool_txs row.
 * Null when neither exists.
 */
export function txStatus(confirmedRow: StoredRow | undefined, mempoolRow: StoredRow | undefined): TxStatus | null {
  if (confirmedRow && confirmedRow['height'] !== null) return 'confirmed';
  if (mempoolRow) return flag(mempoolRow['removed']) ? 'removed' : 'mempool';
  return confirmedRow ? 'orphaned' : null;
}

/** The prevouts whose scripts the record needs (the caller reads those scripts by id). */
export function txPrevouts(status: TxStatus, confirmedRow: StoredRow | undefined, mempoolRow: StoredRow | undefined): (StoredPrevout | null)[] {
  const src = status === 'confirmed' || status === 'orphaned' ? confirmedRow! : mempoolRow!;
  return unpackPrevouts(src['prevouts'] as Uint8Array);
}

export function assembleTxRecord(
  txid: string,
  status: TxStatus,
  confirmedRow: StoredRow | undefined,
  mempoolRow: StoredRow | undefined,
  prevouts: readonly (StoredPrevout | null)[],
  scripts: ReadonlyMap<number, Uint8Array>,
): TxRecord {
  const inBlock = status === 'confirmed' || status === 'orphaned';
  const c = confirmedRow!;
  const src = inBlock ? c : mempoolRow!;
  const seenRaw = mempoolRow?.['seen_at'] ?? confirmedRow?.['first_seen'] ?? null;
  const seenAt = seenRaw === null ? null : int(seenRaw);
  const blockTime = inBlock ? int(c['block_time']) : null;
  return {
    txid,
    raw: src['raw'] as Uint8Array,
    status,
    height: status === 'confirmed' ? int(c['height']) : null,
    blockHash: inBlock ? bytesToHex(c['block_hash'] as Uint8Array) : null,
    blockTime,
    position: inBlock ? int(c['position']) : null,
    seenAt,
    time: status === 'confirmed' ? blockTime! : (seenAt ?? blockTime ?? 0),
    fee: src['fee'] === null ? null : BigInt(src['fee'] as string | number | bigint),
    size: int(src['size']),
    vsize: int(src['vsize']),
    weight: int(src['weight']),
    isCoinbase: inBlock ? flag(c['is_coinbase']) : false,
    doubleSpent: status === 'mempool' || status === 'removed' ? flag(mempoolRow!['double_spent']) : false,
    prevouts: prevouts.map((p) => (p ? { txid: p.txid, vout: p.vout, value: p.value, script: scripts.get(p.scriptId)! } : null)),
  };
}
