/**
 * A bulk load batch made ready for PostgreSQL without a connection: every row it appends as binary COPY payloads. The
 * encoding is the batch's CPU work (its rows, their bytes); the write (postgres-bulk-load.ts) only sends them. Kept
 * apart so an initial load can encode one batch on a worker thread while the server takes in the one before it
 * (main/stores/postgres-worker-loader.ts): on two cores the two then overlap instead of taking turns.
 */
import type { ChainTip } from '../../../core/domain/chain-types.js';
import type { BufferPool } from '../../../core/infrastructure/buffer-pool.js';
import type { BlockToConnect } from '../../../core/store/chain-writes.js';
import { collectBatchNeeds } from '../../common/chain-writes/batch-needs.js';
import { blockFirstTx, buildBulkRows, type BulkRows, type RecentKeys } from '../../common/chain-writes/bulk-rows.js';
import type { ScriptKeys } from '../../common/chain-writes/script-keys.js';
import { BinaryRows, byteaBytes, COPY_BYTES as B, COPY_FRAME_BYTES } from '../connection/postgres-copy.js';
import { forEachHeldOutput, type HeldBatch, type HeldOutputs } from './postgres-held-outputs.js';
import type { PgNet } from './postgres-net.js';

/** One batch's rows as COPY payloads, in the order they are written; plain data, so it crosses threads. */
export interface EncodedBulkBatch {
  /** The first block's height and its previous block's hash (hex; null for the genesis block): checked against the tip. */
  readonly fromHeight: number;
  readonly prevHash: string | null;
  /** The id of the batch's first tx: the tip row's next_tx when it is written. */
  readonly firstId: number;
  readonly txCount: number;
  readonly newTip: ChainTip;
  /** Outputs of txs from `heldFrom` on were held before the batch (checked against the store), from `heldTo` on after it. */
  readonly heldFrom: number;
  readonly heldTo: number;
  /** `COPY <target> FROM STDIN (FORMAT binary)` with `payload`, each in turn. */
  readonly copies: readonly EncodedCopy[];
}

export interface EncodedCopy {
  readonly target: string;
  readonly payload: Uint8Array;
}

/**
 * The buffers of a batch's payloads, to transfer between threads or give back to a pool: each payload is a view from
 * the start of a buffer of its own (BinaryRows never takes memory from Node's shared pool).
 */
export function payloadBuffers(copies: readonly EncodedCopy[]): ArrayBuffer[] {
  return copies.map((c) => c.payload.buffer as ArrayBuffer);
}

/** The outputs still held when a load ends (or stops), written without a batch: from `heldFrom` on, up to `next`. */
export interface EncodedRelease {
  readonly heldFrom: number;
  readonly next: number;
  readonly copies: readonly EncodedCopy[];
}

/**
 * `held`: the outputs of earlier batches not yet written (postgres-held-outputs.ts). Spends of them are marked there
 * and summed into their block's inputs like the batch's own; the batch's outputs are held in turn, and the oldest
 * written once more than its capacity are held (`releaseAll`: every one, the load's last batch). `pool`: where the
 * payloads take their memory (the worker load's, refilled with the payloads of the batches written).
 */
export function encodeBulkBatch(
  n: PgNet, blocks: readonly BlockToConnect[], firstId: number, keys: ScriptKeys, recent: RecentKeys, held: HeldOutputs, releaseAll = false,
  pool?: BufferPool,
): EncodedBulkBatch {
  held.align(firstId);
  const rows = buildBulkRows(blocks, collectBatchNeeds(blocks), firstId, (script) => keys.base(script), recent);
  const heldFrom = held.from;
  const firsts = rows.blocks.map((b) => b.firstTx);
  // During a bulk load `fees` holds the sum of the block's inputs known so far (spends of outputs of the same batch or
  // held); the build adds the pending ones and subtracts the outputs (postgres-bulk-build.ts).
  const inputs = new Map<number, bigint>();
  const addInput = (spender: number, value: bigint): void => {
    const first = blockFirstTx(firsts, spender);
    inputs.set(first, (inputs.get(first) ?? 0n) + value);
  };
  const out = rows.outputs;
  for (let i = 0; i < out.id.length; i++) {
    const spender = out.spentBy[i];
    if (spender !== null && spender !== undefined) addInput(spender, out.value[i]!);
  }
  const pending = spendHeld(rows.pending, held, addInput);
  held.add(firstId, rows.txs.map((x) => x.txid), rows.outputs);
  const written = held.release(releaseAll);
  const first = blocks[0]!;
  return {
    fromHeight: first.height,
    prevHash: first.height === 0 ? null : first.block.header.prevHash,
    firstId,
    txCount: rows.txCount,
    newTip: rows.newTip,
    heldFrom,
    heldTo: held.from,
    copies: finish(copies(n, rows, firsts, inputs, pending, written, pool)),
  };
}

/** Every output still held, to be written as the load ends. */
export function encodeHeldRelease(n: PgNet, held: HeldOutputs, pool?: BufferPool): EncodedRelease {
  const heldFrom = held.from;
  const written = held.release(true);
  return { heldFrom, next: held.from, copies: finish([outputCopy(n, written, pool)]) };
}

type Pending = BulkRows['pending'];

/** The batch's pending spends that no held output takes (those it takes are marked there and summed by `addInput`). */
function spendHeld(p: Pending, held: HeldOutputs, addInput: (spender: number, value: bigint) => void): Pending {
  const left: Pending = { spender: [], vin: [], prevTxid: [], prevVout: [] };
  for (let i = 0; i < p.spender.length; i++) {
    const spender = p.spender[i]!;
    const value = held.spend(p.prevTxid[i]!, p.prevVout[i]!, spender, p.vin[i]!);
    if (value !== null) {
      addInput(spender, value);
      continue;
    }
    left.spender.push(spender);
    left.vin.push(p.vin[i]!);
    left.prevTxid.push(p.prevTxid[i]!);
    left.prevVout.push(p.prevVout[i]!);
  }
  return left;
}

/** The payloads with rows; the memory of those without goes back to its pool. */
function finish(list: { target: string; rows: BinaryRows }[]): EncodedCopy[] {
  for (const c of list) if (c.rows.rows === 0) c.rows.discard();
  return list.filter((c) => c.rows.rows > 0).map((c) => ({ target: c.target, payload: c.rows.finish() }));
}

function outputCopy(n: PgNet, written: readonly HeldBatch[], pool?: BufferPool): { target: string; rows: BinaryRows } {
  const count = written.reduce((total, b) => total + b.value.length, 0);
  const outRows = new BinaryRows(6, COPY_FRAME_BYTES + count * (B.row + 4 * B.int8 + 2 * B.int4), pool);
  for (const batch of written) {
    forEachHeldOutput(batch, (id, vout, value, script, spentBy, spentVin) => {
      outRows.row().int8(id).int4(vout).int8(value).int8(script).int8OrNull(spentBy).int4OrNull(spentVin);
    });
  }
  return { target: `${n.t.outputs} (id, vout, value, script, spent_by, spent_vin)`, rows: outRows };
}

function copies(
  n: PgNet, rows: BulkRows, firsts: readonly number[], inputs: ReadonlyMap<number, bigint>, p: Pending, written: readonly HeldBatch[],
  pool?: BufferPool,
): { target: string; rows: BinaryRows }[] {
  const { t } = n;
  const firstId = firsts[0]!; // the batch's first block's first tx
  // Each payload is sized for its rows up front (a NUMERIC at most 4 + 8 + 2 per 4 digits: 40 digits here).
  const blockRows = new BinaryRows(17, COPY_FRAME_BYTES + rows.blocks.length * (B.row + 3 * B.hash + B.bool + 8 * B.int8 + 5 * B.int4 + 3 * 32));
  for (const b of rows.blocks) {
    blockRows.row().bytea(b.hash).int4(b.height).bool(false).bytea(b.prevHash).bytea(b.merkleRoot).int8(b.version).int8(b.time).int8(b.bits)
      .int8(b.nonce).int4(b.size).int4(b.strippedSize).int4(b.weight).int4(b.txCount).int8(b.firstTx)
      .numeric(inputs.get(b.firstTx) ?? 0n).numeric(b.reward).numeric(b.valueOut);
  }
  const txRows = new BinaryRows(4, COPY_FRAME_BYTES + rows.txs.length * (B.row + B.int8 + B.hash + 2 * B.int4), pool);
  rows.txs.forEach((x, i) => txRows.row().int8(firstId + i).bytea(x.txid).int4(x.size).int4(x.weight));
  let rawBytes = COPY_FRAME_BYTES;
  if (n.storesRaws) for (const x of rows.txs) rawBytes += B.row + B.int8 + byteaBytes(x.raw.length);
  const rawRows = new BinaryRows(2, rawBytes, pool);
  if (n.storesRaws) rows.txs.forEach((x, i) => rawRows.row().int8(firstId + i).bytea(x.raw));
  // Spends of older outputs (not held) with the spender's block (its first tx id), so the build sums each block's
  // inputs without a lookup per spend.
  const pending = new BinaryRows(5, COPY_FRAME_BYTES + p.spender.length * (B.row + 2 * B.int8 + 2 * B.int4 + B.hash), pool);
  for (let i = 0; i < p.spender.length; i++) {
    pending.row().int8(p.spender[i]!).int4(p.vin[i]!).bytea(p.prevTxid[i]!).int4(p.prevVout[i]!).int8(blockFirstTx(firsts, p.spender[i]!));
  }
  let scriptBytes = COPY_FRAME_BYTES;
  for (const x of rows.scripts) scriptBytes += B.row + 2 * B.int8 + byteaBytes(x.script.length);
  const scripts = new BinaryRows(3, scriptBytes, pool);
  for (const s of rows.scripts) scripts.row().int8(s.key).int8(s.firstId).bytea(s.script);
  return [
    { target: `${t.blocks} (hash, height, is_orphan, prev_hash, merkle_root, version, time, bits, nonce, size, stripped_size, weight, tx_count, first_tx, fees, reward, value_out)`, rows: blockRows },
    { target: `${t.txs} (id, txid, size, weight)`, rows: txRows },
    { target: `${t.txRaws} (id, raw)`, rows: rawRows },
    outputCopy(n, written, pool),
    { target: `${t.bulkPending} (spender, vin, prev_txid, prev_vout, spender_block)`, rows: pending },
    { target: `${t.bulkScripts} (key, first_id, script)`, rows: scripts },
  ];
}
