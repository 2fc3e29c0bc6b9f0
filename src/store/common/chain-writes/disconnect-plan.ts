/**
 * disconnectTip written once for both engines, around the few writes each does its own way: the shared plan reads
 * the tip block and everything its undo needs (block-undo.ts), then, once the engine has written the orphaned txs'
 * rows, deleted the block's history rows and subtracted its totals (per row in SQLite, set-based in PostgreSQL),
 * makes the block's outputs unspent or gone, marks it orphaned and moves the tip back.
 */
import { StoreError } from '../../../core/domain/errors.js';
import type { DisconnectedBlock } from '../../../core/store/chain-writes.js';
import type { ChainReadPlans } from '../chain-reads/chain-read-plans.js';
import type { ChainTables } from '../schema/chain-tables.js';
import { bytesToHex, hexToBytes } from '../schema/codec.js';
import { readTip } from '../schema/network-rows.js';
import type { SqlDialect } from '../sql/sql-dialect.js';
import { big, exec, first, num, rows, type Plan } from '../sql/sql-plan.js';
import { orphanRows, planUndo, type OrphanRow, type UndoInput, type UndoOutput, type UndoPlan } from './block-undo.js';

/** What of a network's ChainNet these plans use. */
interface NetTables {
  readonly net: number;
  readonly t: ChainTables;
  readonly dialect: SqlDialect;
  readonly reads: ChainReadPlans;
}

/** What disconnecting the tip block changes, read before anything is written. */
export interface Disconnect {
  readonly hash: string;
  readonly height: number;
  readonly prevHash: Buffer;
  /** The block's tx id range. */
  readonly first: number;
  readonly last: number;
  readonly txs: readonly { id: number; txid: string; raw: Buffer | null }[];
  readonly undo: UndoPlan;
  /** Its txs stay stored as orphaned: they keep what their inputs spent and their fees (orphanRows). */
  readonly orphans: readonly OrphanRow[];
}

export function* readDisconnect(n: NetTables, expectedHash: string): Plan<Disconnect> {
  const { t } = n;
  const tip = yield* readTip(n.net);
  if (!tip || tip.hash !== expectedHash) throw new StoreError(`cannot disconnect ${expectedHash}: tip is ${tip ? tip.hash : 'empty'}`);
  const block = (yield* first(`SELECT height, prev_hash, first_tx, tx_count FROM ${t.blocks} WHERE hash = ?`, [hexToBytes(expectedHash)]))!;
  const firstTx = num(block.first_tx);
  const last = firstTx + num(block.tx_count) - 1;
  const txs = (yield* rows(`SELECT t.id, t.txid, r.raw FROM ${t.txs} t LEFT JOIN ${t.txRaws} r ON r.id = t.id
    WHERE t.id BETWEEN ? AND ? ORDER BY t.id`, [firstTx, last]))
    .map((r) => ({ id: num(r.id), txid: bytesToHex(r.txid as Buffer), raw: r.raw as Buffer | null }));
  const txidOf = new Map<number, string>();
  const inputs: UndoInput[] = (yield* rows(`SELECT o.id, o.vout, o.value, o.script, o.spent_by, o.spent_vin, tx.txid FROM ${t.outputs} o
      JOIN ${t.txs} tx ON tx.id = o.id WHERE o.spent_by BETWEEN ? AND ?`, [firstTx, last]))
    .map((r) => {
      txidOf.set(num(r.id), bytesToHex(r.txid as Buffer));
      return { spender: num(r.spent_by), vin: num(r.spent_vin), id: num(r.id), vout: num(r.vout), value: big(r.value), scriptKey: num(r.script) };
    });
  const outputs: UndoOutput[] = (yield* rows(`SELECT id, vout, value, script FROM ${t.outputs} WHERE id BETWEEN ? AND ?`, [firstTx, last]))
    .map((r) => ({ id: num(r.id), vout: num(r.vout), value: big(r.value), scriptKey: num(r.script) }));
  const scripts = yield* n.reads.scriptsByKey([...inputs.map((i) => i.scriptKey), ...outputs.map((o) => o.scriptKey)]);
  return {
    hash: expectedHash, height: num(block.height), prevHash: block.prev_hash as Buffer, first: firstTx, last, txs,
    undo: planUndo(txs, inputs, outputs, scripts),
    orphans: orphanRows(txs, inputs, outputs, (id) => txidOf.get(id)!),
  };
}

/** The writes both engines make alike, after their own; what connectBlocks' caller is told. */
export function* finishDisconnect(n: NetTables, d: Disconnect): Plan<DisconnectedBlock> {
  const { t } = n;
  // Outputs the block spent that it did not create itself become unspent again; its own outputs go.
  yield* exec(`UPDATE ${t.outputs} SET spent_by = NULL, spent_vin = NULL WHERE spent_by BETWEEN ? AND ? AND id < ?`, [d.first, d.last, d.first]);
  yield* exec(`DELETE FROM ${t.outputs} WHERE id BETWEEN ? AND ?`, [d.first, d.last]);
  yield* exec(`UPDATE ${t.blocks} SET is_orphan = ${n.dialect.yes} WHERE hash = ?`, [hexToBytes(d.hash)]);
  yield* exec('UPDATE tips SET height = ?, hash = ? WHERE net = ?', [d.height - 1, d.prevHash, n.net]);
  return {
    hash: d.hash, height: d.height, prevHash: bytesToHex(d.prevHash),
    txs: d.txs.map((tx, position) => ({ txid: tx.txid, raw: tx.raw, isCoinbase: position === 0 })),
    deltas: d.undo.deltas,
  };
}
