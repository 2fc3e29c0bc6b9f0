/**
 * connectBlocks / disconnectTip for PostgreSQL (compact chain layout, chain-tables.ts): a fixed number of set-based
 * statements per batch whatever its size, bulk rows by binary COPY (postgres-copy.ts).
 */
import type pg from 'pg';
import type { BlockToConnect, ConnectedBlock, DisconnectedBlock } from '../../../core/store/chain-writes.js';
import { assertExtendsTip, collectBatchNeeds, missingPrevoutError, type BatchNeeds } from '../../common/chain-writes/batch-needs.js';
import { buildBatchRows, connectedBlocks, type BatchRows, type ResolvedOutput } from '../../common/chain-writes/block-rows.js';
import type { BulkBlockRow } from '../../common/chain-writes/bulk-rows.js';
import { finishDisconnect, readDisconnect } from '../../common/chain-writes/disconnect-plan.js';
import { bytesToHex, hexToBytes } from '../../common/schema/codec.js';
import { readTipRow, writeTip } from '../../common/schema/network-rows.js';
import type { ScriptCache } from '../../common/chain-writes/script-cache.js';
import { BinaryRows, copyRows } from '../connection/postgres-copy.js';
import { settleMempool } from './postgres-mempool-settle.js';
import type { PgNet } from './postgres-net.js';
import { applyTotals, PgScriptBook } from './postgres-scripts.js';
import { runPostgres } from '../connection/postgres-plans.js';
import { big, dec, num, rows, type Queryable } from '../connection/postgres-sql.js';
import { STAGE } from './postgres-staging.js';

/**
 * The id of every tx of the batch. A block connected again after a reorg gets its old range back (its tx rows are
 * still there); any other block the next ids. Either way main-chain ids stay in chain order: a block's old range was
 * given after its parent's. `again`: some block of the batch was connected before.
 */
async function assignTxIds(
  db: Queryable, n: PgNet, blocks: readonly BlockToConnect[], nextTx: number,
): Promise<{ txIds: number[]; nextTx: number; again: boolean }> {
  const known = new Map<string, number>();
  const hashes = blocks.map((b) => hexToBytes(b.block.header.hash));
  for (const r of await rows(db, `SELECT hash, first_tx FROM ${n.t.blocks} WHERE hash = ANY($1::bytea[])`, [hashes])) {
    known.set(bytesToHex(r.hash as Buffer), num(r.first_tx));
  }
  const txIds: number[] = [];
  for (const { block } of blocks) {
    const old = known.get(block.header.hash);
    let first = old ?? nextTx;
    if (old === undefined) nextTx += block.txs.length;
    for (let i = 0; i < block.txs.length; i++) txIds.push(first++);
  }
  return { txIds, nextTx, again: known.size > 0 };
}

interface SpentOutput {
  readonly id: number;
  readonly value: bigint;
  readonly key: number;
}

/**
 * Resolves every external prevout and marks it spent in one statement: the outpoints are copied into staging and
 * joined to txs by txid (through the index on its first 8 bytes) and to outputs; of the txs with a txid, the newest
 * whose output is still stored and unspent (orphaned txs have no outputs left; a BIP30 duplicate's older copy is
 * spent). A missing one throws and rolls the batch back.
 */
async function spendExternal(db: pg.ClientBase, n: PgNet, needs: BatchNeeds, txIds: readonly number[]): Promise<SpentOutput[]> {
  const ext = needs.externalPrevouts;
  if (ext.length === 0) return [];
  // In txid order: the probes walk the txid index from one end to the other (each leaf page read once per batch).
  const order = ext.map((_, i) => i).sort((a, b) => (ext[a]!.txid < ext[b]!.txid ? -1 : ext[a]!.txid > ext[b]!.txid ? 1 : 0));
  const staged = new BinaryRows(5, 64 + ext.length * 66);
  for (const i of order) {
    const op = ext[i]!;
    staged.row().int4(i).hashHex(op.txid).int4(op.vout).int8(txIds[op.spender]!).int4(op.vin);
  }
  await copyRows(db, STAGE.spends, staged);
  const { t } = n;
  // Driven by the staged outpoints (the writer session joins by nested loops: see PostgresNetworkStore.openWriter), each
  // probing txs and outputs by index, whatever their size. Of an outpoint's stored copies the unspent ones come
  // first, then the newest: an order, not a condition, which would let the planner scan the partial index of all
  // unspent outputs instead (it does while the table has no statistics: quadratic). The row found is updated by its
  // ctid: no second probe of the key.
  const spent = await rows(db, `WITH found AS (
      SELECT DISTINCT ON (k.n) k.n, k.spender, k.vin, o.ctid AS row, o.spent_by FROM ${STAGE.spends} k
        JOIN ${t.txs} tx ON substring(tx.txid from 1 for 8) = substring(k.txid from 1 for 8) AND tx.txid = k.txid
        JOIN ${t.outputs} o ON o.id = tx.id AND o.vout = k.vout
      ORDER BY k.n, o.spent_by IS NULL DESC, tx.id DESC)
    UPDATE ${t.outputs} o SET spent_by = f.spender, spent_vin = f.vin FROM found f WHERE o.ctid = f.row AND f.spent_by IS NULL
    RETURNING f.n, o.id, o.value, o.script`);
  const found = new Array<SpentOutput | undefined>(ext.length);
  for (const r of spent) found[num(r.n)] = { id: num(r.id), value: big(r.value), key: num(r.script) };
  if (spent.length !== ext.length) {
    const missing = ext.find((_, i) => found[i] === undefined);
    if (missing) throw missingPrevoutError(missing);
  }
  return found as SpentOutput[];
}

export async function connectBlocksTx(db: pg.ClientBase, n: PgNet, blocks: readonly BlockToConnect[], cache: ScriptCache): Promise<ConnectedBlock[]> {
  if (blocks.length === 0) return [];
  const stored = await runPostgres(db, readTipRow(n.net));
  assertExtendsTip(blocks, stored.tip);
  const { txIds, nextTx, again } = await assignTxIds(db, n, blocks, stored.nextTx);
  const needs = collectBatchNeeds(blocks);
  const scripts = new PgScriptBook(db, n, cache);
  const scriptKeys = await scripts.resolve(needs.scripts);
  const spent = await spendExternal(db, n, needs, txIds);
  await scripts.load(spent.map((s) => s.key));
  const external: ResolvedOutput[] = spent.map((s) => ({ id: s.id, value: s.value, scriptKey: s.key, script: scripts.script(s.key) }));
  const batch = buildBatchRows(blocks, needs, { txIds, scriptKeys, external });
  const { confirmed, conflicted } = await settleMempool(db, n, blocks, batch.txs);
  await writeRows(db, n, batch, again);
  await scripts.write(batch.totals);
  await runPostgres(db, writeTip(n.net, batch.newTip, nextTx));
  return connectedBlocks(batch, confirmed, conflicted);
}

/** Block rows in one statement (column arrays), with their `fees` (in order) and `tail` (an ON CONFLICT clause or ''). */
async function insertBlocks(db: pg.ClientBase, table: string, bl: readonly BulkBlockRow[], fees: readonly bigint[], tail: string): Promise<void> {
  await db.query(`INSERT INTO ${table} (hash, height, is_orphan, prev_hash, merkle_root, version, time, bits, nonce, size, stripped_size,
      weight, tx_count, first_tx, fees, reward, value_out)
    SELECT u.hash, u.height, FALSE, u.prev_hash, u.merkle_root, u.version, u.time, u.bits, u.nonce, u.size, u.stripped_size, u.weight,
      u.tx_count, u.first_tx, u.fees, u.reward, u.value_out
    FROM unnest($1::bytea[], $2::int[], $3::bytea[], $4::bytea[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::int[],
      $10::int[], $11::int[], $12::int[], $13::bigint[], $14::numeric[], $15::numeric[], $16::numeric[])
      AS u(hash, height, prev_hash, merkle_root, version, time, bits, nonce, size, stripped_size, weight, tx_count, first_tx, fees, reward, value_out)${tail}`,
  [bl.map((x) => x.hash), bl.map((x) => x.height), bl.map((x) => x.prevHash), bl.map((x) => x.merkleRoot), bl.map((x) => x.version),
    bl.map((x) => x.time), bl.map((x) => x.bits), bl.map((x) => x.nonce), bl.map((x) => x.size), bl.map((x) => x.strippedSize),
    bl.map((x) => x.weight), bl.map((x) => x.txCount), bl.map((x) => x.firstTx), dec(fees),
    dec(bl.map((x) => x.reward)), dec(bl.map((x) => x.valueOut))]);
}

/** `again`: some block was connected before, so some of its tx rows exist (upserted through staging). */
async function writeRows(db: pg.ClientBase, n: PgNet, b: BatchRows, again: boolean): Promise<void> {
  const { t } = n;
  await insertBlocks(db, t.blocks, b.blocks, b.blocks.map((x) => x.fees), ' ON CONFLICT (hash) DO UPDATE SET is_orphan = FALSE, height = excluded.height');
  const txRows = new BinaryRows(5, 1 << 20);
  for (const x of b.txs) txRows.row().int8(x.id).bytea(x.txid).int4(x.size).int4(x.weight).int8OrNull(x.firstSeen);
  const txColumns = '(id, txid, size, weight, first_seen)';
  const rawRows = new BinaryRows(2, 1 << 20);
  if (again) {
    // A block connected again finds its tx rows still there (only the first-seen time may be new), raw bytes too.
    await copyRows(db, `${STAGE.txs} ${txColumns}`, txRows);
    await db.query(`INSERT INTO ${t.txs} SELECT * FROM ${STAGE.txs} ON CONFLICT (id) DO UPDATE
      SET first_seen = coalesce(excluded.first_seen, ${t.txs}.first_seen), orphan_prevouts = NULL, orphan_fee = NULL`);
    if (n.storesRaws) {
      const known = new Set((await rows(db, `SELECT id FROM ${t.txRaws} WHERE id = ANY($1::bigint[])`, [b.txs.map((x) => x.id)])).map((r) => num(r.id)));
      for (const x of b.txs) if (!known.has(x.id)) rawRows.row().int8(x.id).bytea(x.raw);
    }
  } else {
    await copyRows(db, `${t.txs} ${txColumns}`, txRows);
    if (n.storesRaws) for (const x of b.txs) rawRows.row().int8(x.id).bytea(x.raw);
  }
  if (rawRows.rows > 0) await copyRows(db, `${t.txRaws} (id, raw)`, rawRows);
  // Outputs and history rows of a disconnected block were deleted with it: these never conflict.
  const o = b.outputs;
  const outRows = new BinaryRows(6, 1 << 20);
  for (let i = 0; i < o.id.length; i++) {
    outRows.row().int8(o.id[i]!).int4(o.vout[i]!).int8(o.value[i]!).int8(o.script[i]!).int8OrNull(o.spentBy[i]!).int4OrNull(o.spentVin[i]!);
  }
  await copyRows(db, `${t.outputs} (id, vout, value, script, spent_by, spent_vin)`, outRows);
  // In key order: each leaf page of the history key is touched once per batch.
  const h = b.history;
  const order = h.id.map((_, i) => i).sort((x, y) => h.script[x]! - h.script[y]! || h.id[x]! - h.id[y]!);
  const historyRows = new BinaryRows(3, 1 << 20);
  for (const i of order) historyRows.row().int8(h.script[i]!).int8(h.id[i]!).int4(h.flags[i]!);
  await copyRows(db, `${t.history} (script, id, flags)`, historyRows);
}

export async function disconnectTipTx(db: pg.ClientBase, n: PgNet, expectedHash: string): Promise<DisconnectedBlock> {
  const { t } = n;
  const d = await runPostgres(db, readDisconnect(n, expectedHash));
  const o = d.orphans;
  await db.query(`UPDATE ${t.txs} x SET orphan_prevouts = u.prevouts, orphan_fee = u.fee
    FROM unnest($1::bigint[], $2::bytea[], $3::bigint[]) AS u(id, prevouts, fee) WHERE x.id = u.id`,
  [o.map((r) => r.id), o.map((r) => r.prevouts), o.map((r) => (r.fee === null ? null : r.fee.toString()))]);
  const h = d.undo.history;
  await db.query(`DELETE FROM ${t.history} h USING unnest($1::bigint[], $2::bigint[]) AS d(script, id) WHERE h.script = d.script AND h.id = d.id`,
    [h.map(([script]) => script), h.map(([, id]) => id)]);
  await applyTotals(db, n, d.undo.totals);
  return runPostgres(db, finishDisconnect(n, d));
}
