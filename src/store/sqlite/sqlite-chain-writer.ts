/** connectBlocks / disconnectTip for SQLite: synchronous bodies run inside one better-sqlite3 transaction each. */
import { StoreError } from '../../core/errors.js';
import type { BlockToConnect, ChainTip, ConnectedBlock, DisconnectedBlock } from '../../core/store.js';
import {
  assertExtendsTip, buildBatchRows, collectBatchNeeds, missingPrevoutError, spentOutpoints, type BatchRows, type ResolvedOutput,
} from '../common/block-rows.js';
import type { ScriptCache } from '../common/script-cache.js';
import { planUndo, undoScriptIds, type StoredOutputForUndo, type StoredTxForUndo } from '../common/block-undo.js';
import { bytesToHex, hexToBytes, outpointKey, unpackTxids } from '../common/codec.js';
import { mempoolIsEmpty, removeMempoolTx } from './sqlite-mempool-removal.js';
import { BulkInsert } from './sqlite-bulk.js';
import { applyTotals, scriptsById, ScriptBook } from './sqlite-scripts.js';
import { big, num, type Row, type Statements } from './sqlite-statements.js';

export function readTip(st: Statements, net: number): ChainTip | null {
  const row = st.get('SELECT height, hash FROM tips WHERE net = ?').get(net) as Row | undefined;
  return row ? { height: num(row.height), hash: bytesToHex(row.hash as Buffer) } : null;
}

export function connectBlocksSync(st: Statements, net: number, blocks: readonly BlockToConnect[], cache: ScriptCache): ConnectedBlock[] {
  if (blocks.length === 0) return [];
  assertExtendsTip(blocks, readTip(st, net));
  const needs = collectBatchNeeds(blocks);
  const scripts = new ScriptBook(st, net, cache);
  const scriptIds = scripts.resolve(needs.scripts);
  // Resolving an external prevout and marking it spent is one B-tree search (the batch is one transaction:
  // a missing prevout throws and rolls everything back).
  const spend = st.get('UPDATE outputs SET spent_txid = ?, spent_vin = ? WHERE net = ? AND txid = ? AND vout = ? RETURNING value, script_id');
  // In (txid, vout) order: consecutive lookups share index pages.
  const external = [...needs.externalPrevouts].sort((a, b) => (a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : a.vout - b.vout));
  const found: { key: string; value: bigint; scriptId: number }[] = [];
  for (const op of external) {
    const row = spend.get(op.spender, op.vin, net, hexToBytes(op.txid), op.vout) as Row | undefined;
    if (!row) throw missingPrevoutError(op);
    found.push({ key: outpointKey(op.txid, op.vout), value: big(row.value), scriptId: num(row.script_id) });
  }
  scripts.load(found.map((f) => f.scriptId));
  const prevouts = new Map<string, ResolvedOutput>();
  for (const f of found) prevouts.set(f.key, { value: f.value, scriptId: f.scriptId, script: scripts.script(f.scriptId) });
  const rows = buildBatchRows(blocks, needs, scriptIds, prevouts);
  const { confirmed, conflicted } = settleMempool(st, net, blocks, rows);
  writeRows(st, net, rows);
  scripts.write(rows.totals);
  st.get('INSERT INTO tips (net, height, hash) VALUES (?, ?, ?) ON CONFLICT (net) DO UPDATE SET height = excluded.height, hash = excluded.hash')
    .run(net, rows.newTip.height, hexToBytes(rows.newTip.hash));
  return rows.summaries.map((s) => ({ ...s, confirmedFromMempool: confirmed, conflicted }));
}

/** Confirmed txs leave the mempool; mempool txs spending what the batch spends are double spends. */
function settleMempool(
  st: Statements, net: number, blocks: readonly BlockToConnect[], rows: BatchRows,
): { confirmed: string[]; conflicted: string[] } {
  const confirmed: string[] = [];
  const conflicted: string[] = [];
  if (mempoolIsEmpty(st, net)) return { confirmed, conflicted };
  const seen = st.get('SELECT seen_at, removed FROM mempool_txs WHERE net = ? AND txid = ?');
  for (const tx of rows.txs) {
    const row = seen.get(net, tx.txid) as Row | undefined;
    if (!row) continue;
    tx.firstSeen = num(row.seen_at);
    if (num(row.removed) === 0) {
      removeMempoolTx(st, net, tx.txidHex, 'delete', false);
      confirmed.push(tx.txidHex);
    }
    st.get('DELETE FROM mempool_txs WHERE net = ? AND txid = ?').run(net, tx.txid);
  }
  const spenders = st.get('SELECT txid FROM mempool_spends WHERE net = ? AND prev_txid = ? AND prev_vout = ?');
  for (const { outpoint, spender } of spentOutpoints(blocks)) {
    for (const r of spenders.all(net, hexToBytes(outpoint.txid), outpoint.vout) as Row[]) {
      const other = bytesToHex(r.txid as Buffer);
      if (other !== spender) removeMempoolTx(st, net, other, 'mark', true, conflicted);
    }
  }
  return { confirmed, conflicted };
}

function writeRows(st: Statements, net: number, rows: BatchRows): void {
  const block = st.get(`INSERT INTO blocks (net, hash, height, is_orphan, prev_hash, merkle_root, version, time, bits, nonce,
      size, stripped_size, weight, tx_count, fees, reward, value_out, txids)
    VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (net, hash) DO UPDATE SET is_orphan = 0, height = excluded.height`);
  for (const b of rows.blocks) {
    block.run(net, b.hash, b.height, b.prevHash, b.merkleRoot, b.version, b.time, b.bits, b.nonce, b.size, b.strippedSize,
      b.weight, b.txCount, b.fees.toString(), b.reward.toString(), b.valueOut.toString(), b.txids);
  }
  // Upserts: a tx of an orphaned block may be confirmed again, and BIP30 duplicate coinbases overwrite.
  const tx = new BulkInsert(st, 'INSERT INTO txs (net, txid, block_hash, height, position, raw, size, vsize, weight, fee, is_coinbase, prevouts, first_seen)', 13,
    ` ON CONFLICT (net, txid) DO UPDATE SET block_hash = excluded.block_hash, height = excluded.height, position = excluded.position,
      raw = excluded.raw, fee = excluded.fee, prevouts = excluded.prevouts, first_seen = coalesce(excluded.first_seen, first_seen)`);
  let v = tx.values;
  for (const t of rows.txs) {
    const o = tx.next();
    v[o] = net; v[o + 1] = t.txid; v[o + 2] = t.blockHash; v[o + 3] = t.height; v[o + 4] = t.position; v[o + 5] = t.raw;
    v[o + 6] = t.size; v[o + 7] = t.vsize; v[o + 8] = t.weight; v[o + 9] = t.fee; v[o + 10] = t.isCoinbase ? 1 : 0;
    v[o + 11] = t.prevouts; v[o + 12] = t.firstSeen;
  }
  tx.finish();
  // Outputs in txid order and history in script order: B-tree inserts in key order touch each page once.
  const out = rows.outputs;
  const output = new BulkInsert(st, 'INSERT OR REPLACE INTO outputs (net, txid, vout, value, script_id, height, position, spent_txid, spent_vin)', 9);
  v = output.values;
  const byTxid = rows.txs.slice().sort((a, b) => (a.txidHex < b.txidHex ? -1 : a.txidHex > b.txidHex ? 1 : 0));
  for (const t of byTxid) {
    for (let i = t.firstOutput; i < t.firstOutput + t.outputCount; i++) {
      const o = output.next();
      v[o] = net; v[o + 1] = out.txid[i]; v[o + 2] = out.vout[i]; v[o + 3] = out.value[i]; v[o + 4] = out.scriptId[i];
      v[o + 5] = out.height[i]; v[o + 6] = out.position[i]; v[o + 7] = out.spentTxid[i]; v[o + 8] = out.spentVin[i];
    }
  }
  output.finish();
  const h = rows.history;
  const history = new BulkInsert(st, 'INSERT INTO history (script_id, height, position, io, n, txid, value)', 7);
  v = history.values;
  // Rows come in (height, position) order; a stable sort by script id gives (nearly) key order.
  const order = Array.from({ length: h.txid.length }, (_, i) => i).sort((a, b) => h.scriptId[a]! - h.scriptId[b]! || a - b);
  for (const i of order) {
    const o = history.next();
    v[o] = h.scriptId[i]; v[o + 1] = h.height[i]; v[o + 2] = h.position[i]; v[o + 3] = h.io[i]; v[o + 4] = h.n[i];
    v[o + 5] = h.txid[i]; v[o + 6] = h.value[i];
  }
  history.finish();
}

export function disconnectTipSync(st: Statements, net: number, expectedHash: string): DisconnectedBlock {
  const tip = readTip(st, net);
  if (!tip || tip.hash !== expectedHash) {
    throw new StoreError(`cannot disconnect ${expectedHash}: tip is ${tip ? tip.hash : 'empty'}`);
  }
  const hash = hexToBytes(expectedHash);
  const block = st.get('SELECT height, prev_hash, txids FROM blocks WHERE net = ? AND hash = ?').get(net, hash) as Row;
  const height = num(block.height);
  const txids = unpackTxids(block.txids as Buffer);
  const txSelect = st.get('SELECT raw, is_coinbase, prevouts FROM txs WHERE net = ? AND txid = ?');
  const outSelect = st.get('SELECT vout, value, script_id FROM outputs WHERE net = ? AND txid = ? AND height = ?');
  const txs: (StoredTxForUndo & { raw: Buffer; isCoinbase: boolean })[] = [];
  const outputs: StoredOutputForUndo[] = [];
  for (const txid of txids) {
    const id = hexToBytes(txid);
    const row = txSelect.get(net, id) as Row;
    txs.push({ txid, raw: row.raw as Buffer, isCoinbase: num(row.is_coinbase) === 1, prevouts: row.prevouts as Buffer });
    for (const o of outSelect.all(net, id, height) as Row[]) {
      outputs.push({ txid, vout: num(o.vout), value: big(o.value), scriptId: num(o.script_id) });
    }
  }
  const plan = planUndo(txs, outputs, scriptsById(st, undoScriptIds(txs, outputs)));
  const unspend = st.get('UPDATE outputs SET spent_txid = NULL, spent_vin = NULL WHERE net = ? AND txid = ? AND vout = ?');
  for (const op of plan.unspend) unspend.run(net, hexToBytes(op.txid), op.vout);
  const delOutputs = st.get('DELETE FROM outputs WHERE net = ? AND txid = ? AND height = ?');
  const orphanTx = st.get('UPDATE txs SET height = NULL WHERE net = ? AND txid = ?');
  for (const txid of txids) {
    delOutputs.run(net, hexToBytes(txid), height);
    orphanTx.run(net, hexToBytes(txid));
  }
  const delHistory = st.get('DELETE FROM history WHERE script_id = ? AND height = ?');
  for (const id of plan.historyScriptIds) delHistory.run(id, height);
  applyTotals(st, plan.totals);
  st.get('UPDATE blocks SET is_orphan = 1 WHERE net = ? AND hash = ?').run(net, hash);
  const prevHash = bytesToHex(block.prev_hash as Buffer);
  if (height === 0) st.get('DELETE FROM tips WHERE net = ?').run(net);
  else st.get('UPDATE tips SET height = ?, hash = ? WHERE net = ?').run(height - 1, block.prev_hash, net);
  return {
    hash: expectedHash, height, prevHash,
    txs: txs.map((t) => ({ txid: t.txid, raw: t.raw, isCoinbase: t.isCoinbase })),
    deltas: plan.deltas,
  };
}
