import type { RawTxMode } from '../../core/sources/raw-txs.js';
import type { ChainStore } from '../../core/store/store.js';
import type { SqlValue } from '../common/accounts/sql-runner.js';

/** One fresh database per test; engines implement this so one suite checks both. */
export interface TestDatabase {
  readonly store: ChainStore;
  readonly engine: 'sqlite' | 'postgres';
  /** Every table as plain rows (bytes as hex, numbers as strings), sorted: for exact before/after comparisons. */
  dump(): Promise<Record<string, Record<string, string | null>[]>>;
  /** Writes a schema version directly, as a newer Outpoint would have. */
  setSchemaVersion(version: number): Promise<void>;
  /**
   * Runs SQL both engines understand, e.g. rows in an older version's layout. With `params`, one statement with
   * `?` placeholders (numbers, strings, Buffers, null; flags as 0/1, which PostgreSQL reads as booleans).
   */
  exec(sql: string, params?: readonly SqlValue[]): Promise<void>;
  /** Closes `store` and opens another ChainStore on the same database. */
  reopen(): Promise<ChainStore>;
  dispose(): Promise<void>;
}

export interface StoreOptions {
  /** Narrows the script key space so that keys collide (see script-keys.ts). */
  readonly scriptKeyBits?: number;
  /** `[store] raw_txs`; default "store". */
  readonly rawTxs?: RawTxMode;
}

export interface StoreHarness {
  create(options?: StoreOptions): Promise<TestDatabase>;
}

export function plainValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (typeof value === 'boolean') return value ? '1' : '0';
  return String(value);
}

export function plainRows(rows: readonly Record<string, unknown>[]): Record<string, string | null>[] {
  return rows
    .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plainValue(v)])))
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}
