/**
 * Initial (bulk) load for SQLite, the appending half (the building half is sqlite-bulk-build.ts). The network's tables
 * are B-trees clustered by their keys: txs (rowid = id) and outputs ((id, vout)) are appended in key order, so every
 * insert lands on the last page; the secondary indexes are dropped, history and scripts are left empty, and nothing
 * is read back: a spend of an output from an earlier batch is written to bulk_pending for the build to resolve.
 */
import { StoreError } from '../../../core/domain/errors.js';
import type { ChainTip } from '../../../core/domain/chain-types.js';
import type { BlockToConnect } from '../../../core/store/chain-writes.js';
import type { BulkLoadState } from '../../../core/store/network-store.js';
import { assertExtendsTip, collectBatchNeeds } from '../../common/chain-writes/batch-needs.js';
import { blockFirstTx, buildBulkRows, type BulkRows, type RecentKeys } from '../../common/chain-writes/bulk-rows.js';
import { deferredIndexes } from '../../common/schema/chain-tables.js';
import { BulkInsert } from './sqlite-bulk.js';
import { readNextTx, readTip, writeTip } from './sqlite-chain-writer.js';
import type { SqliteNet } from './sqlite-net.js';
import { num, type Row } from '../connection/sqlite-statements.js';

export function readBulkLoad(n: SqliteNet): BulkLoadState | null {
  const row = n.st.get('SELECT step, started_at FROM bulk_loads WHERE net = ?').get(n.net) as Row | undefined;
  return row ? { step: num(row.step), startedAt: num(row.started_at) } : null;
}

export function beginBulkLoadSync(n: SqliteNet, startedAt: number): void {
  if (readBulkLoad(n)) throw new StoreError(`${n.id}: a bulk load is already in progress`);
  if (readTip(n) || n.st.get(`SELECT 1 FROM ${n.t.txs} LIMIT 1`).get()) throw new StoreError(`${n.id}: bulk load needs an empty chain index`);
  for (const index of deferredIndexes('sqlite', n.id)) n.st.db.exec(index.drop);
  n.st.db.exec(`
    CREATE TABLE IF NOT EXISTS ${n.t.bulkPending} (spender INTEGER NOT NULL, vin INTEGER NOT NULL, prev_txid BLOB NOT NULL, prev_vout INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS ${n.t.bulkScripts} (key INTEGER NOT NULL, first_id INTEGER NOT NULL, script BLOB NOT NULL);`);
  n.st.get('INSERT INTO bulk_loads (net, step, started_at) VALUES (?, 0, ?)').run(n.net, startedAt);
}

export function loadBlocksSync(n: SqliteNet, blocks: readonly BlockToConnect[], recent: RecentKeys): ChainTip {
  const state = readBulkLoad(n);
  if (!state || state.step !== 0) throw new StoreError(`${n.id}: no bulk load is appending blocks`);
  assertExtendsTip(blocks, readTip(n));
  const firstId = readNextTx(n);
  const needs = collectBatchNeeds(blocks);
  const rows = buildBulkRows(blocks, needs, firstId, (script) => n.keys.base(script), recent);
  writeBulkRows(n, rows, firstId);
  writeTip(n, rows.newTip, firstId + rows.txCount);
  return rows.newTip;
}

function writeBulkRows(n: SqliteNet, rows: BulkRows, firstId: number): void {
  const { st, t } = n;
  // During a bulk load `fees` holds the sum of the block's inputs known so far (spends of outputs created by the same
  // batch); the build adds the pending ones and subtracts the outputs (sqlite-bulk-build.ts, block fees).
  const inputs = new Map<number, bigint>();
  const firsts = rows.blocks.map((b) => b.firstTx);
  for (let i = 0; i < rows.outputs.id.length; i++) {
    const spender = rows.outputs.spentBy[i];
    if (spender === null || spender === undefined) continue;
    const first = blockFirstTx(firsts, spender);
    inputs.set(first, (inputs.get(first) ?? 0n) + rows.outputs.value[i]!);
  }
  const block = st.get(`INSERT INTO ${t.blocks} (hash, height, is_orphan, prev_hash, merkle_root, version, time, bits, nonce,
      size, stripped_size, weight, tx_count, first_tx, fees, reward, value_out)
    VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const b of rows.blocks) {
    block.run(b.hash, b.height, b.prevHash, b.merkleRoot, b.version, b.time, b.bits, b.nonce, b.size, b.strippedSize,
      b.weight, b.txCount, b.firstTx, (inputs.get(b.firstTx) ?? 0n).toString(), b.reward.toString(), b.valueOut.toString());
  }
  const tx = new BulkInsert(st, `INSERT INTO ${t.txs} (id, txid, size, weight)`, 4);
  let v = tx.values;
  for (let i = 0; i < rows.txs.length; i++) {
    const r = rows.txs[i]!;
    const o = tx.next();
    v[o] = firstId + i; v[o + 1] = r.txid; v[o + 2] = r.size; v[o + 3] = r.weight;
  }
  tx.finish();
  if (n.storesRaws) {
    const raw = new BulkInsert(st, `INSERT INTO ${t.txRaws} (id, raw)`, 2);
    v = raw.values;
    for (let i = 0; i < rows.txs.length; i++) {
      const o = raw.next();
      v[o] = firstId + i; v[o + 1] = rows.txs[i]!.raw;
    }
    raw.finish();
  }
  const out = rows.outputs;
  const output = new BulkInsert(st, `INSERT INTO ${t.outputs} (id, vout, value, script, spent_by, spent_vin)`, 6);
  v = output.values;
  for (let i = 0; i < out.id.length; i++) {
    const o = output.next();
    v[o] = out.id[i]; v[o + 1] = out.vout[i]; v[o + 2] = out.value[i]; v[o + 3] = out.script[i]; v[o + 4] = out.spentBy[i]; v[o + 5] = out.spentVin[i];
  }
  output.finish();
  const p = rows.pending;
  const pending = new BulkInsert(st, `INSERT INTO ${t.bulkPending} (spender, vin, prev_txid, prev_vout)`, 4);
  v = pending.values;
  for (let i = 0; i < p.spender.length; i++) {
    const o = pending.next();
    v[o] = p.spender[i]; v[o + 1] = p.vin[i]; v[o + 2] = p.prevTxid[i]; v[o + 3] = p.prevVout[i];
  }
  pending.finish();
  const scripts = new BulkInsert(st, `INSERT INTO ${t.bulkScripts} (key, first_id, script)`, 3);
  v = scripts.values;
  for (const s of rows.scripts) {
    const o = scripts.next();
    v[o] = s.key; v[o + 1] = s.firstId; v[o + 2] = s.script;
  }
  scripts.finish();
}

/** Forgets the network's chain index and mempool (the start of a rebuild from scratch). */
export function resetChainSync(n: SqliteNet): void {
  const { t } = n;
  for (const table of [t.blocks, t.txs, t.txRaws, t.outputs, t.history, t.scripts, t.mempoolTxs, t.mempoolOutputs, t.mempoolSpends]) {
    n.st.db.exec(`DELETE FROM ${table}`);
  }
  n.st.db.exec(`DROP TABLE IF EXISTS ${t.bulkPending}; DROP TABLE IF EXISTS ${t.bulkScripts};`);
  for (const index of deferredIndexes('sqlite', n.id)) n.st.db.exec(`${index.drop}; ${index.create}`);
  n.st.get('DELETE FROM tips WHERE net = ?').run(n.net);
  n.st.get('DELETE FROM bulk_loads WHERE net = ?').run(n.net);
}
