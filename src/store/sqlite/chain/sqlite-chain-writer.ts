/** connectBlocks / disconnectTip for SQLite: synchronous bodies run inside one better-sqlite3 transaction each. */
import { StoreError } from '../../../core/domain/errors.js';
import type { ChainTip } from '../../../core/domain/chain-types.js';
import type { BlockToConnect, ConnectedBlock, DisconnectedBlock } from '../../../core/store/chain-writes.js';
import { assertExtendsTip, collectBatchNeeds, missingPrevoutError, spentOutpoints, type BatchNeeds } from '../../common/chain-writes/batch-needs.js';
import { buildBatchRows, connectedBlocks, type BatchRows, type ResolvedOutput } from '../../common/chain-writes/block-rows.js';
import { orphanRows, planUndo, type UndoInput, type UndoOutput } from '../../common/chain-writes/block-undo.js';
import { bytesToHex, hexToBytes } from '../../common/schema/codec.js';
import type { ScriptCache } from '../../common/chain-writes/script-cache.js';
import { BulkInsert } from './sqlite-bulk.js';
import { mempoolIsEmpty, removeMempoolTx } from './sqlite-mempool-removal.js';
import type { SqliteNet } from './sqlite-net.js';
import { applyTotals, ScriptBook, scriptsByKey } from './sqlite-scripts.js';
import { big, num, type Row } from '../connection/sqlite-statements.js';

/** The tip marker; a network whose every block was disconnected keeps its row (height -1) for next_tx. */
export function readTip(n: SqliteNet): ChainTip | null {
  const row = n.st.get('SELECT height, hash FROM tips WHERE net = ?').get(n.net) as Row | undefined;
  return row && num(row.height) >= 0 ? { height: num(row.height), hash: bytesToHex(row.hash as Buffer) } : null;
}

/** The id the next new transaction of the network gets (ids are never reused). */
export function readNextTx(n: SqliteNet): number {
  const row = n.st.get('SELECT next_tx FROM tips WHERE net = ?').get(n.net) as Row | undefined;
  return row ? num(row.next_tx) : 0;
}

export function writeTip(n: SqliteNet, tip: ChainTip, nextTx: number): void {
  n.st.get(`INSERT INTO tips (net, height, hash, next_tx) VALUES (?, ?, ?, ?)
    ON CONFLICT (net) DO UPDATE SET height = excluded.height, hash = excluded.hash, next_tx = excluded.next_tx`)
    .run(n.net, tip.height, hexToBytes(tip.hash), nextTx);
}

/**
 * The id of every tx of the batch. A block connected again after a reorg gets its old range back (its tx rows are
 * still there); any other block the next ids. Either way main-chain ids stay in chain order: a block's old range was
 * given after its parent's.
 */
export function assignTxIds(n: SqliteNet, blocks: readonly BlockToConnect[]): { txIds: number[]; nextTx: number } {
  const known = n.st.get(`SELECT first_tx FROM ${n.t.blocks} WHERE hash = ?`);
  let nextTx = readNextTx(n);
  const txIds: number[] = [];
  for (const { block } of blocks) {
    const row = known.get(hexToBytes(block.header.hash)) as Row | undefined;
    let first = row ? num(row.first_tx) : nextTx;
    if (!row) nextTx += block.txs.length;
    for (let i = 0; i < block.txs.length; i++) txIds.push(first++);
  }
  return { txIds, nextTx };
}

/** The ids of the stored txs with this txid (several: a copy in an orphaned block, a BIP30 duplicate), newest first. */
export function txIdsOf(n: SqliteNet, txid: Buffer): number[] {
  return (n.st.get(`SELECT id FROM ${n.t.txs} WHERE substr(txid, 1, 8) = ? AND txid = ? ORDER BY id DESC`)
    .all(txid.subarray(0, 8), txid) as Row[]).map((r) => num(r.id));
}

/**
 * Resolves each external prevout and marks it spent in one step: of the txs with its txid, the one whose output is
 * still stored and unspent (orphaned txs have no outputs left). A missing one throws and rolls the batch back.
 */
function spendExternal(n: SqliteNet, needs: BatchNeeds, txIds: readonly number[]): { key: number; value: bigint; id: number }[] {
  const spend = n.st.get(`UPDATE ${n.t.outputs} SET spent_by = ?, spent_vin = ? WHERE id = ? AND vout = ? AND spent_by IS NULL RETURNING value, script`);
  const found = new Array<{ key: number; value: bigint; id: number }>(needs.externalPrevouts.length);
  // In (txid, vout) order: consecutive lookups share index pages.
  const order = needs.externalPrevouts.map((_, i) => i).sort((a, b) => {
    const x = needs.externalPrevouts[a]!;
    const y = needs.externalPrevouts[b]!;
    return x.txid < y.txid ? -1 : x.txid > y.txid ? 1 : x.vout - y.vout;
  });
  for (const i of order) {
    const op = needs.externalPrevouts[i]!;
    let hit: { key: number; value: bigint; id: number } | undefined;
    for (const id of txIdsOf(n, hexToBytes(op.txid))) {
      const row = spend.get(txIds[op.spender], op.vin, id, op.vout) as Row | undefined;
      if (row) { hit = { key: num(row.script), value: big(row.value), id }; break; }
    }
    if (!hit) throw missingPrevoutError(op);
    found[i] = hit;
  }
  return found;
}

export function connectBlocksSync(n: SqliteNet, blocks: readonly BlockToConnect[], cache: ScriptCache): ConnectedBlock[] {
  if (blocks.length === 0) return [];
  assertExtendsTip(blocks, readTip(n));
  const { txIds, nextTx } = assignTxIds(n, blocks);
  const needs = collectBatchNeeds(blocks);
  const scripts = new ScriptBook(n, cache);
  const scriptKeys = scripts.resolve(needs.scripts);
  const spent = spendExternal(n, needs, txIds);
  scripts.load(spent.map((s) => s.key));
  const external: ResolvedOutput[] = spent.map((s) => ({ id: s.id, value: s.value, scriptKey: s.key, script: scripts.script(s.key) }));
  const rows = buildBatchRows(blocks, needs, { txIds, scriptKeys, external });
  const { confirmed, conflicted } = settleMempool(n, blocks, rows);
  writeRows(n, rows);
  scripts.write(rows.totals);
  writeTip(n, rows.newTip, nextTx);
  return connectedBlocks(rows, confirmed, conflicted);
}

/** Confirmed txs leave the mempool; mempool txs spending what the batch spends are double spends. */
function settleMempool(n: SqliteNet, blocks: readonly BlockToConnect[], rows: BatchRows): { confirmed: string[]; conflicted: string[] } {
  const confirmed: string[] = [];
  const conflicted: string[] = [];
  if (mempoolIsEmpty(n)) return { confirmed, conflicted };
  const seen = n.st.get(`SELECT seen_at, removed FROM ${n.t.mempoolTxs} WHERE txid = ?`);
  for (const tx of rows.txs) {
    const row = seen.get(tx.txid) as Row | undefined;
    if (!row) continue;
    tx.firstSeen = num(row.seen_at);
    if (num(row.removed) === 0) {
      removeMempoolTx(n, tx.txidHex, 'delete', false);
      confirmed.push(tx.txidHex);
    }
    n.st.get(`DELETE FROM ${n.t.mempoolTxs} WHERE txid = ?`).run(tx.txid);
  }
  const spenders = n.st.get(`SELECT txid FROM ${n.t.mempoolSpends} WHERE prev_txid = ? AND prev_vout = ?`);
  for (const { outpoint, spender } of spentOutpoints(blocks)) {
    for (const r of spenders.all(hexToBytes(outpoint.txid), outpoint.vout) as Row[]) {
      const other = bytesToHex(r.txid as Buffer);
      if (other !== spender) removeMempoolTx(n, other, 'mark', true, conflicted);
    }
  }
  return { confirmed, conflicted };
}

function writeRows(n: SqliteNet, rows: BatchRows): void {
  const { st, t } = n;
  const block = st.get(`INSERT INTO ${t.blocks} (hash, height, is_orphan, prev_hash, merkle_root, version, time, bits, nonce,
      size, stripped_size, weight, tx_count, first_tx, fees, reward, value_out)
    VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (hash) DO UPDATE SET is_orphan = 0, height = excluded.height`);
  for (const b of rows.blocks) {
    block.run(b.hash, b.height, b.prevHash, b.merkleRoot, b.version, b.time, b.bits, b.nonce, b.size, b.strippedSize,
      b.weight, b.txCount, b.firstTx, b.fees.toString(), b.reward.toString(), b.valueOut.toString());
  }
  // A block connected again finds its tx rows still there (only the first-seen time may be new).
  const tx = new BulkInsert(st, `INSERT INTO ${t.txs} (id, txid, size, weight, first_seen)`, 5,
    ' ON CONFLICT (id) DO UPDATE SET first_seen = coalesce(excluded.first_seen, first_seen), orphan_prevouts = NULL, orphan_fee = NULL');
  let v = tx.values;
  for (const r of rows.txs) {
    const o = tx.next();
    v[o] = r.id; v[o + 1] = r.txid; v[o + 2] = r.size; v[o + 3] = r.weight; v[o + 4] = r.firstSeen;
  }
  tx.finish();
  if (n.storesRaws) {
    const raw = new BulkInsert(st, `INSERT OR IGNORE INTO ${t.txRaws} (id, raw)`, 2);
    v = raw.values;
    for (const r of rows.txs) {
      const o = raw.next();
      v[o] = r.id; v[o + 1] = r.raw;
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
  // In key order: B-tree inserts touch each page once.
  const h = rows.history;
  const order = h.id.map((_, i) => i).sort((a, b) => h.script[a]! - h.script[b]! || h.id[a]! - h.id[b]!);
  const history = new BulkInsert(st, `INSERT INTO ${t.history} (script, id, flags)`, 3);
  v = history.values;
  for (const i of order) {
    const o = history.next();
    v[o] = h.script[i]; v[o + 1] = h.id[i]; v[o + 2] = h.flags[i];
  }
  history.finish();
}

/** An orphaned tx keeps what its inputs spent and its fee on its row (orphanRows). */
function keepOrphanPrevouts(n: SqliteNet, txs: readonly { id: number }[], inputs: readonly UndoInput[], outputs: readonly UndoOutput[]): void {
  const txidOf = n.st.get(`SELECT txid FROM ${n.t.txs} WHERE id = ?`);
  const update = n.st.get(`UPDATE ${n.t.txs} SET orphan_prevouts = ?, orphan_fee = ? WHERE id = ?`);
  for (const r of orphanRows(txs, inputs, outputs, (id) => bytesToHex((txidOf.get(id) as Row).txid as Buffer))) update.run(r.prevouts, r.fee, r.id);
}

export function disconnectTipSync(n: SqliteNet, expectedHash: string): DisconnectedBlock {
  const { st, t } = n;
  const tip = readTip(n);
  if (!tip || tip.hash !== expectedHash) throw new StoreError(`cannot disconnect ${expectedHash}: tip is ${tip ? tip.hash : 'empty'}`);
  const hash = hexToBytes(expectedHash);
  const block = st.get(`SELECT height, prev_hash, first_tx, tx_count FROM ${t.blocks} WHERE hash = ?`).get(hash) as Row;
  const height = num(block.height);
  const first = num(block.first_tx);
  const last = first + num(block.tx_count) - 1;
  const txs = (st.get(`SELECT t.id, t.txid, r.raw FROM ${t.txs} t LEFT JOIN ${t.txRaws} r ON r.id = t.id WHERE t.id BETWEEN ? AND ? ORDER BY t.id`).all(first, last) as Row[])
    .map((r) => ({ id: num(r.id), txid: bytesToHex(r.txid as Buffer), raw: r.raw as Buffer | null }));
  const inputs: UndoInput[] = (st.get(`SELECT id, vout, value, script, spent_by, spent_vin FROM ${t.outputs} WHERE spent_by BETWEEN ? AND ?`)
    .all(first, last) as Row[]).map((r) => ({ spender: num(r.spent_by), vin: num(r.spent_vin), id: num(r.id), vout: num(r.vout), value: big(r.value), scriptKey: num(r.script) }));
  const outputs: UndoOutput[] = (st.get(`SELECT id, vout, value, script FROM ${t.outputs} WHERE id BETWEEN ? AND ?`).all(first, last) as Row[])
    .map((r) => ({ id: num(r.id), vout: num(r.vout), value: big(r.value), scriptKey: num(r.script) }));
  const scripts = scriptsByKey(n, [...inputs.map((i) => i.scriptKey), ...outputs.map((o) => o.scriptKey)]);
  const plan = planUndo(txs, inputs, outputs, scripts);
  keepOrphanPrevouts(n, txs, inputs, outputs);
  // Outputs the block spent that it did not create itself become unspent again; its own outputs go.
  st.get(`UPDATE ${t.outputs} SET spent_by = NULL, spent_vin = NULL WHERE spent_by BETWEEN ? AND ? AND id < ?`).run(first, last, first);
  st.get(`DELETE FROM ${t.outputs} WHERE id BETWEEN ? AND ?`).run(first, last);
  const delHistory = st.get(`DELETE FROM ${t.history} WHERE script = ? AND id = ?`);
  for (const [script, id] of plan.history) delHistory.run(script, id);
  applyTotals(n, plan.totals);
  st.get(`UPDATE ${t.blocks} SET is_orphan = 1 WHERE hash = ?`).run(hash);
  st.get('UPDATE tips SET height = ?, hash = ? WHERE net = ?').run(height - 1, block.prev_hash, n.net);
  return {
    hash: expectedHash, height, prevHash: bytesToHex(block.prev_hash as Buffer),
    txs: txs.map((tx, position) => ({ txid: tx.txid, raw: tx.raw, isCoinbase: position === 0 })),
    deltas: plan.deltas,
  };
}
