/** What both engines' stores are opened with, besides where the database is. */
import { RAW_TX_MODES, type RawTxMode } from '../../../core/sources/raw-txs.js';

export interface ChainStoreOptions {
  /** Narrows the script key space (tests that need key collisions); default the store's own (meta.script_key_bits). */
  readonly scriptKeyBits?: number;
  /** `[store] raw_txs`: "node" writes no confirmed tx's raw bytes (tx_raws_n stays empty). Default "store". */
  readonly rawTxs?: RawTxMode;
}

/** The mode a meta row records (null: none, a store never opened with raw_txs set). */
export function storedRawTxMode(row: { value?: unknown } | undefined | null): RawTxMode | null {
  const value = row?.value;
  return (RAW_TX_MODES as readonly unknown[]).includes(value) ? (value as RawTxMode) : null;
}
