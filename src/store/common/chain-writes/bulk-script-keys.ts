/**
 * The end of a bulk load settles script keys, the same way on both engines (plans, sql-plan.ts). Outputs were written
 * with their scripts' base keys. Where several scripts share one (rare: see script-keys.ts), the first seen keeps it
 * and each other takes the first key no script of the network has (every key in between is taken, so a lookup
 * probing from the base key reaches it); its outputs are re-keyed by reading their scripts from the raw transactions
 * (stored, or fetched from the node with raw_txs = "node"). The engine first fills `<bulk_scripts>_distinct` (key,
 * script, first_id) with the distinct scripts seen; they stay there for the totals step.
 */
import { StoreError } from '../../../core/domain/errors.js';
import type { RawTxLocation } from '../../../core/sources/raw-txs.js';
import { parseTransaction } from '../../../chains/tx/tx-parser.js';
import type { ChainTables } from '../schema/chain-tables.js';
import { bytesToHex } from '../schema/codec.js';
import type { SqlDialect } from '../sql/sql-dialect.js';
import { exec, first, num, rows, type Plan, type Row } from '../sql/sql-plan.js';
import { nextKey } from './script-keys.js';

/** Scripts that leave their base key, by base key: each one's bytes and new key. */
export type MovedScripts = Map<number, { script: Buffer; key: number }[]>;

/** An output whose script key collides, with its tx's raw bytes when the store keeps them. */
export type AffectedOutput = { id: number; vout: number; script: number; raw: Uint8Array | null };

/** Gives each colliding script but the first seen a free key, in `<bulk_scripts>_distinct`; empty: nothing collides. */
export function* moveCollidingScripts(t: ChainTables): Plan<MovedScripts> {
  const distinct = `${t.bulkScripts}_distinct`;
  const colliding = yield* rows(`SELECT d.key, d.script, d.first_id FROM ${distinct} d
    WHERE d.key IN (SELECT key FROM ${distinct} GROUP BY key HAVING count(*) > 1) ORDER BY d.key, d.first_id`);
  const moved: MovedScripts = new Map();
  const assigned = new Set<number>();
  let previous: number | null = null;
  for (const row of colliding) {
    const base = num(row.key);
    if (base !== previous) { previous = base; continue; } // the first seen keeps its base key
    let key = nextKey(base);
    while (assigned.has(key) || (yield* first(`SELECT 1 FROM ${distinct} WHERE key = ?`, [key]))) key = nextKey(key);
    assigned.add(key);
    moved.set(base, [...(moved.get(base) ?? []), { script: row.script as Buffer, key }]);
  }
  for (const [base, scripts] of moved) {
    for (const s of scripts) yield* exec(`UPDATE ${distinct} SET key = ? WHERE key = ? AND script = ?`, [s.key, base, s.script]);
  }
  return moved;
}

/** The outputs paying the moved scripts' base keys: one scan of the outputs (there is no index of all outputs by script). */
export function* affectedOutputs(t: ChainTables, d: SqlDialect, moved: MovedScripts): Plan<AffectedOutput[]> {
  return (yield* rows(`SELECT o.id, o.vout, o.script, x.raw FROM ${t.outputs} o LEFT JOIN ${t.txRaws} x ON x.id = o.id
    WHERE ${d.inList('o.script')}`, [d.list([...moved.keys()])]))
    .map((r) => ({ id: num(r.id), vout: num(r.vout), script: num(r.script), raw: (r.raw ?? null) as Uint8Array | null }));
}

/** Where the node has the tx of id `id` (its txid, block and position), for raw_txs = "node". */
export function* locateTx(t: ChainTables, id: number): Plan<RawTxLocation> {
  const row: Row | undefined = yield* first(`SELECT t.txid, b.hash, b.first_tx FROM ${t.txs} t
    JOIN ${t.blocks} b ON b.first_tx = (SELECT first_tx FROM ${t.blocks} WHERE first_tx <= t.id ORDER BY first_tx DESC LIMIT 1) WHERE t.id = ?`, [id]);
  if (!row) throw new StoreError(`bulk load: no tx of id ${id}`);
  return { txid: bytesToHex(row.txid as Buffer), blockHash: bytesToHex(row.hash as Buffer), position: id - num(row.first_tx) };
}

/** Moves each affected output to its script's new key (reading the script from the raw tx, stored or `fetched`). */
export function* rekeyOutputs(t: ChainTables, moved: MovedScripts, affected: readonly AffectedOutput[], fetched: ReadonlyMap<number, Uint8Array>): Plan<void> {
  for (const o of affected) {
    const raw = o.raw ?? fetched.get(o.id) ?? null;
    if (!raw) throw new StoreError(`bulk load: colliding script keys need the raw tx of id ${o.id}`);
    const script = Buffer.from(parseTransaction(raw, { mweb: true }).outputs[o.vout]!.script);
    const target = moved.get(o.script)!.find((s) => s.script.equals(script));
    if (target) yield* exec(`UPDATE ${t.outputs} SET script = ? WHERE id = ? AND vout = ?`, [target.key, o.id, o.vout]);
  }
}
