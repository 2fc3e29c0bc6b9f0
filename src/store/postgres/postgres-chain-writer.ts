/** connectBlocks / disconnectTip for PostgreSQL: a fixed number of set-based statements per batch (unnest arrays). */
import { StoreError } from '../../core/errors.js';
import type { BlockToConnect, ChainTip, ConnectedBlock, DisconnectedBlock } from '../../core/store.js';
import {
  assertExtendsTip, buildBatchRows, collectBatchNeeds, missingPrevoutError, spentOutpoints, type BatchRows, type ResolvedOutput,
} from '../common/block-rows.js';
import { planUndo, undoScriptIds } from '../common/block-undo.js';
import { bytesToHex, hexToBytes, outpointKey, unpackTxids } from '../common/codec.js';
import { mempoolIsEmpty, removeMempoolTx } from './postgres-mempool-removal.js';
import { applyTotals, resolveBatchScripts, scriptsById, writeBatchTotals } from './postgres-scripts.js';
import type pg from 'pg';
import { BinaryRows, copyRows } from './postgres-copy.js';
import { big, dec, num, one, rows, txidArray, type Queryable } from './postgres-sql.js';
import { STAGE } from './postgres-staging.js';

export async function readTip(db: Queryable, net: number): Promise<ChainTip | null> {
  const row = await one(db, 'SELECT height, hash FROM tips WHERE net = $1', [net]);
  return row ? { height: num(row.height), hash: bytesToHex(row.hash as Buffer) } : null;
}

export async function connectBlocksTx(db: pg.ClientBase, net: number, blocks: readonly BlockToConnect[]): Promise<ConnectedBlock[]> {
  if (blocks.length === 0) return [];
  assertExtendsTip(blocks, await readTip(db, net));
  const needs = collectBatchNeeds(blocks);
  const ext = needs.externalPrevouts;
  const prevouts = new Map<string, ResolvedOutput>();
  if (ext.length > 0) {
    // The staged spends serve twice: this lookup, and the UPDATE marking them spent in writeRows.
    const keys = new BinaryRows(4, 1 << 20);
    for (const op of ext) keys.row().bytea(hexToBytes(op.txid)).int4(op.vout).bytea(op.spender).int4(op.vin);
    await copyRows(db, STAGE.spends, keys);
    const found = await rows(db, `SELECT o.txid, o.vout, o.value, o.script_id, s.script FROM ${STAGE.spends} k
      JOIN outputs o ON o.net = $1 AND o.txid = k.txid AND o.vout = k.vout JOIN scripts s ON s.id = o.script_id`, [net]);
    for (const r of found) {
      prevouts.set(outpointKey(bytesToHex(r.txid as Buffer), num(r.vout)), { value: big(r.value), scriptId: num(r.script_id), script: r.script as Buffer });
    }
    const missing = ext.find((o) => !prevouts.has(outpointKey(o.txid, o.vout)));
    if (missing) throw missingPrevoutError(missing);
  }
  const scripts = await resolveBatchScripts(db, net, needs.scripts);
  const batch = buildBatchRows(blocks, needs, scripts.ids, prevouts);
  const { confirmed, conflicted } = await settleMempool(db, net, blocks, batch);
  await writeRows(db, net, batch, scripts.fresh, ext.length > 0);
  return batch.summaries.map((s) => ({ ...s, confirmedFromMempool: confirmed, conflicted }));
}

async function settleMempool(
  db: Queryable, net: number, blocks: readonly BlockToConnect[], batch: BatchRows,
): Promise<{ confirmed: string[]; conflicted: string[] }> {
  const confirmed: string[] = [];
  const conflicted: string[] = [];
  if (await mempoolIsEmpty(db, net)) return { confirmed, conflicted };
  const byTxid = new Map(batch.txs.map((t) => [t.txidHex, t]));
  const known = await rows(db, 'SELECT txid, seen_at, removed FROM mempool_txs WHERE net = $1 AND txid = ANY($2::bytea[])', [net, batch.txs.map((t) => t.txid)]);
  for (const r of known) {
    const txid = bytesToHex(r.txid as Buffer);
    byTxid.get(txid)!.firstSeen = num(r.seen_at);
    if (!r.removed) {
      await removeMempoolTx(db, net, txid, 'delete', false);
      confirmed.push(txid);
    }
    await db.query('DELETE FROM mempool_txs WHERE net = $1 AND txid = $2', [net, r.txid]);
  }
  const spent = spentOutpoints(blocks);
  const spenders = await rows(db, `SELECT k.spender, m.txid FROM unnest($2::bytea[], $3::int[], $4::text[]) AS k(txid, vout, spender)
    JOIN mempool_spends m ON m.net = $1 AND m.prev_txid = k.txid AND m.prev_vout = k.vout`,
  [net, txidArray(spent.map((s) => s.outpoint.txid)), spent.map((s) => s.outpoint.vout), spent.map((s) => s.spender)]);
  for (const r of spenders) {
    const other = bytesToHex(r.txid as Buffer);
    if (other !== r.spender) await removeMempoolTx(db, net, other, 'mark', true, conflicted);
  }
  return { confirmed, conflicted };
}

/** spendsStaged: the external prevouts the batch spends are in the spends staging table (connectBlocksTx put them there). */
async function writeRows(
  db: pg.ClientBase, net: number, b: BatchRows, freshScripts: ReadonlyMap<number, Uint8Array>, spendsStaged: boolean,
): Promise<void> {
  const bl = b.blocks;
  await db.query(`INSERT INTO blocks (net, hash, height, is_orphan, prev_hash, merkle_root, version, time, bits, nonce, size, stripped_size,
      weight, tx_count, fees, reward, value_out, txids)
    SELECT $1, * FROM unnest($2::bytea[], $3::int[], $4::bool[], $5::bytea[], $6::bytea[], $7::bigint[], $8::bigint[], $9::bigint[],
      $10::bigint[], $11::int[], $12::int[], $13::int[], $14::int[], $15::numeric[], $16::numeric[], $17::numeric[], $18::bytea[])
    ON CONFLICT (net, hash) DO UPDATE SET is_orphan = FALSE, height = excluded.height`,
  [net, bl.map((x) => x.hash), bl.map((x) => x.height), bl.map(() => false), bl.map((x) => x.prevHash), bl.map((x) => x.merkleRoot),
    bl.map((x) => x.version), bl.map((x) => x.time), bl.map((x) => x.bits), bl.map((x) => x.nonce), bl.map((x) => x.size),
    bl.map((x) => x.strippedSize), bl.map((x) => x.weight), bl.map((x) => x.txCount), dec(bl.map((x) => x.fees)),
    dec(bl.map((x) => x.reward)), dec(bl.map((x) => x.valueOut)), bl.map((x) => x.txids)]);
  // Bulk rows go through binary COPY (postgres-copy.ts); rows that may already exist land in session-local staging
  // tables first so the upsert stays one set-based statement.
  const t = b.txs;
  const txRows = new BinaryRows(13, 1 << 20);
  for (const x of t) {
    txRows.row().int2(net).bytea(x.txid).bytea(x.blockHash).int4(x.height).int4(x.position).bytea(x.raw).int4(x.size).int4(x.vsize)
      .int4(x.weight).int8OrNull(x.fee).bool(x.isCoinbase).bytea(x.prevouts).int8OrNull(x.firstSeen);
  }
  await copyRows(db, STAGE.txs, txRows);
  // Upserts: a tx of an orphaned block may be confirmed again, and BIP30 duplicate coinbases overwrite.
  await db.query(`INSERT INTO txs SELECT * FROM ${STAGE.txs}
    ON CONFLICT (net, txid) DO UPDATE SET block_hash = excluded.block_hash, height = excluded.height, position = excluded.position,
      raw = excluded.raw, fee = excluded.fee, prevouts = excluded.prevouts, first_seen = coalesce(excluded.first_seen, txs.first_seen)`);
  const o = b.outputs;
  const outRows = new BinaryRows(9, 1 << 20);
  for (let i = 0; i < o.txid.length; i++) {
    outRows.row().int2(net).bytea(o.txid[i]!).int4(o.vout[i]!).int8(o.value[i]!).int8(o.scriptId[i]!).int4(o.height[i]!)
      .int4(o.position[i]!).byteaOrNull(o.spentTxid[i]!).int4OrNull(o.spentVin[i]!);
  }
  await copyRows(db, STAGE.outputs, outRows);
  await db.query(`INSERT INTO outputs SELECT * FROM ${STAGE.outputs}
    ON CONFLICT (net, txid, vout) DO UPDATE SET value = excluded.value, script_id = excluded.script_id, height = excluded.height,
      position = excluded.position, spent_txid = excluded.spent_txid, spent_vin = excluded.spent_vin`);
  if (spendsStaged) {
    await db.query(`UPDATE outputs o SET spent_txid = k.stxid, spent_vin = k.vin FROM ${STAGE.spends} k
      WHERE o.net = $1 AND o.txid = k.txid AND o.vout = k.vout`, [net]);
  }
  const h = b.history;
  const historyRows = new BinaryRows(7, 1 << 20);
  for (let i = 0; i < h.txid.length; i++) {
    historyRows.row().int8(h.scriptId[i]!).int4(h.height[i]!).int4(h.position[i]!).int2(h.io[i]!).int4(h.n[i]!).bytea(h.txid[i]!)
      .int8(h.value[i]!);
  }
  await copyRows(db, 'history (script_id, height, position, io, n, txid, value)', historyRows);
  await writeBatchTotals(db, net, b.totals, freshScripts);
  await db.query('INSERT INTO tips (net, height, hash) VALUES ($1, $2, $3) ON CONFLICT (net) DO UPDATE SET height = excluded.height, hash = excluded.hash',
    [net, b.newTip.height, hexToBytes(b.newTip.hash)]);
}

export async function disconnectTipTx(db: pg.ClientBase, net: number, expectedHash: string): Promise<DisconnectedBlock> {
  const tip = await readTip(db, net);
  if (!tip || tip.hash !== expectedHash) throw new StoreError(`cannot disconnect ${expectedHash}: tip is ${tip ? tip.hash : 'empty'}`);
  const hash = hexToBytes(expectedHash);
  const block = (await one(db, 'SELECT height, prev_hash, txids FROM blocks WHERE net = $1 AND hash = $2', [net, hash]))!;
  const height = num(block.height);
  const txids = unpackTxids(block.txids as Buffer);
  const ids = txidArray(txids);
  const txRows = new Map((await rows(db, 'SELECT txid, raw, is_coinbase, prevouts FROM txs WHERE net = $1 AND txid = ANY($2::bytea[])', [net, ids]))
    .map((r) => [bytesToHex(r.txid as Buffer), r]));
  const txs = txids.map((txid) => {
    const r = txRows.get(txid)!;
    return { txid, raw: r.raw as Buffer, isCoinbase: r.is_coinbase as boolean, prevouts: r.prevouts as Buffer };
  });
  const outputs = (await rows(db, 'SELECT txid, vout, value, script_id FROM outputs WHERE net = $1 AND txid = ANY($2::bytea[]) AND height = $3', [net, ids, height]))
    .map((r) => ({ txid: bytesToHex(r.txid as Buffer), vout: num(r.vout), value: big(r.value), scriptId: num(r.script_id) }));
  const plan = planUndo(txs, outputs, await scriptsById(db, undoScriptIds(txs, outputs)));
  await db.query(`UPDATE outputs o SET spent_txid = NULL, spent_vin = NULL FROM unnest($2::bytea[], $3::int[]) AS k(txid, vout)
    WHERE o.net = $1 AND o.txid = k.txid AND o.vout = k.vout`, [net, txidArray(plan.unspend.map((u) => u.txid)), plan.unspend.map((u) => u.vout)]);
  await db.query('DELETE FROM outputs WHERE net = $1 AND txid = ANY($2::bytea[]) AND height = $3', [net, ids, height]);
  await db.query('UPDATE txs SET height = NULL WHERE net = $1 AND txid = ANY($2::bytea[])', [net, ids]);
  await db.query('DELETE FROM history WHERE script_id = ANY($1::bigint[]) AND height = $2', [plan.historyScriptIds, height]);
  await applyTotals(db, plan.totals);
  await db.query('UPDATE blocks SET is_orphan = TRUE WHERE net = $1 AND hash = $2', [net, hash]);
  if (height === 0) await db.query('DELETE FROM tips WHERE net = $1', [net]);
  else await db.query('UPDATE tips SET height = $2, hash = $3 WHERE net = $1', [net, height - 1, block.prev_hash]);
  return {
    hash: expectedHash, height, prevHash: bytesToHex(block.prev_hash as Buffer),
    txs: txs.map((t) => ({ txid: t.txid, raw: t.raw, isCoinbase: t.isCoinbase })), deltas: plan.deltas,
  };
}
