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
import { big, dec, num, one, rows, txidArray, type Queryable } from './postgres-sql.js';

export async function readTip(db: Queryable, net: number): Promise<ChainTip | null> {
  const row = await one(db, 'SELECT height, hash FROM tips WHERE net = $1', [net]);
  return row ? { height: num(row.height), hash: bytesToHex(row.hash as Buffer) } : null;
}

export async function connectBlocksTx(db: Queryable, net: number, blocks: readonly BlockToConnect[]): Promise<ConnectedBlock[]> {
  if (blocks.length === 0) return [];
  assertExtendsTip(blocks, await readTip(db, net));
  const needs = collectBatchNeeds(blocks);
  const ext = needs.externalPrevouts;
  const prevouts = new Map<string, ResolvedOutput>();
  if (ext.length > 0) {
    const found = await rows(db, `SELECT o.txid, o.vout, o.value, o.script_id, s.script FROM unnest($2::bytea[], $3::int[]) AS k(txid, vout)
      JOIN outputs o ON o.net = $1 AND o.txid = k.txid AND o.vout = k.vout JOIN scripts s ON s.id = o.script_id`,
    [net, txidArray(ext.map((o) => o.txid)), ext.map((o) => o.vout)]);
    for (const r of found) {
      prevouts.set(outpointKey(bytesToHex(r.txid as Buffer), num(r.vout)), { value: big(r.value), scriptId: num(r.script_id), script: r.script as Buffer });
    }
    const missing = ext.find((o) => !prevouts.has(outpointKey(o.txid, o.vout)));
    if (missing) throw missingPrevoutError(missing);
  }
  const scripts = await resolveBatchScripts(db, net, needs.scripts);
  const batch = buildBatchRows(blocks, needs, scripts.ids, prevouts);
  const { confirmed, conflicted } = await settleMempool(db, net, blocks, batch);
  await writeRows(db, net, batch, scripts.fresh);
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

async function writeRows(db: Queryable, net: number, b: BatchRows, freshScripts: ReadonlyMap<number, Uint8Array>): Promise<void> {
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
  const t = b.txs;
  // Upserts: a tx of an orphaned block may be confirmed again, and BIP30 duplicate coinbases overwrite.
  await db.query(`INSERT INTO txs (net, txid, block_hash, height, position, raw, size, vsize, weight, fee, is_coinbase, prevouts, first_seen)
    SELECT $1, * FROM unnest($2::bytea[], $3::bytea[], $4::int[], $5::int[], $6::bytea[], $7::int[], $8::int[], $9::int[], $10::bigint[],
      $11::bool[], $12::bytea[], $13::bigint[])
    ON CONFLICT (net, txid) DO UPDATE SET block_hash = excluded.block_hash, height = excluded.height, position = excluded.position,
      raw = excluded.raw, fee = excluded.fee, prevouts = excluded.prevouts, first_seen = coalesce(excluded.first_seen, txs.first_seen)`,
  [net, t.map((x) => x.txid), t.map((x) => x.blockHash), t.map((x) => x.height), t.map((x) => x.position), t.map((x) => x.raw),
    t.map((x) => x.size), t.map((x) => x.vsize), t.map((x) => x.weight), t.map((x) => (x.fee === null ? null : x.fee.toString())),
    t.map((x) => x.isCoinbase), t.map((x) => x.prevouts), t.map((x) => x.firstSeen)]);
  const o = b.outputs;
  // Columns go to unnest as they are; bigint values as decimal text (exact).
  await db.query(`INSERT INTO outputs (net, txid, vout, value, script_id, height, position, spent_txid, spent_vin)
    SELECT $1, * FROM unnest($2::bytea[], $3::int[], $4::bigint[], $5::bigint[], $6::int[], $7::int[], $8::bytea[], $9::int[])
    ON CONFLICT (net, txid, vout) DO UPDATE SET value = excluded.value, script_id = excluded.script_id, height = excluded.height,
      position = excluded.position, spent_txid = excluded.spent_txid, spent_vin = excluded.spent_vin`,
  [net, o.txid, o.vout, dec(o.value), o.scriptId, o.height, o.position, o.spentTxid, o.spentVin]);
  const s = b.spends;
  if (s.txid.length > 0) {
    await db.query(`UPDATE outputs o SET spent_txid = k.stxid, spent_vin = k.vin
      FROM unnest($2::bytea[], $3::int[], $4::bytea[], $5::int[]) AS k(txid, vout, stxid, vin)
      WHERE o.net = $1 AND o.txid = k.txid AND o.vout = k.vout`,
    [net, s.prevTxid, s.prevVout, s.txid, s.vin]);
  }
  const h = b.history;
  await db.query(`INSERT INTO history (script_id, height, position, io, n, txid, value)
    SELECT * FROM unnest($1::bigint[], $2::int[], $3::int[], $4::smallint[], $5::int[], $6::bytea[], $7::bigint[])`,
  [h.scriptId, h.height, h.position, h.io, h.n, h.txid, dec(h.value)]);
  await writeBatchTotals(db, net, b.totals, freshScripts);
  await db.query('INSERT INTO tips (net, height, hash) VALUES ($1, $2, $3) ON CONFLICT (net) DO UPDATE SET height = excluded.height, hash = excluded.hash',
    [net, b.newTip.height, hexToBytes(b.newTip.hash)]);
}

export async function disconnectTipTx(db: Queryable, net: number, expectedHash: string): Promise<DisconnectedBlock> {
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
