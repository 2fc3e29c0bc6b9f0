/** Script rows as both engines read them: a row as a cache entry, and the probe for a script's key (script-keys.ts). */
import { sameBytes, scriptKey } from '../schema/codec.js';
import type { ChainTables } from '../schema/chain-tables.js';
import { big, first, num, type Plan, type Row } from '../sql/sql-plan.js';
import type { CachedScript } from './script-cache.js';
import { nextKey } from './script-keys.js';

/** A script row as read (sums exact past 2^63: SQLite INTEGER or decimal TEXT, PostgreSQL NUMERIC as a string). */
export function cachedRow(row: Row): CachedScript {
  return {
    id: num(row.key), key: scriptKey(row.script as Buffer), received: big(row.received), sent: big(row.sent),
    txCount: num(row.tx_count), receivedCount: num(row.received_count), sentCount: num(row.sent_count),
  };
}

/** Probes a script's key sequence row by row from `from`: its stored row, or null with the first free key not `taken`. */
export function* probeScript(t: ChainTables, script: Uint8Array, from: number, taken?: ReadonlySet<number>): Plan<{ row: Row | null; key: number }> {
  for (let key = from; ; key = nextKey(key)) {
    const row = yield* first(`SELECT * FROM ${t.scripts} WHERE key = ?`, [key]);
    if (!row) {
      if (taken?.has(key)) continue;
      return { row: null, key };
    }
    if (sameBytes(row.script as Buffer, script)) return { row, key };
  }
}
