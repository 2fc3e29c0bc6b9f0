/**
 * The outputs of a PostgreSQL initial load's latest batches, held back by the encoder (the load's worker thread)
 * instead of written with their batch. A later batch spending one of them marks it here, so it is written once,
 * already spent, and the build has no pending spend left to resolve for it: resolving means a join on the txids and a
 * rewrite of the whole outputs table (on the 100k bench chain 1.9 s of a 6 s build), where SQLite updates in place.
 * The oldest batch's outputs leave once more than `capacity` txs are held, and all of them at the end of the load.
 *
 * Until written they exist only here: the load records in the transaction of each batch from which tx id on outputs
 * are still held (`from`), and a load resumed after a kill first rewinds to there (postgres-bulk-held.ts).
 */
import { StoreError } from '../../../core/domain/errors.js';
import type { OutputColumns } from '../../common/chain-writes/block-rows.js';
import { scriptKey } from '../../common/schema/codec.js';

/** A txid's Map key: its bytes as latin1, as scripts are keyed (codec.ts), with no Buffer made per call. */
const txidKey = scriptKey;

/** About 250 bytes a tx (outputs, txid map): ~125 MB, on the 20M-tx bench chain most spends are of younger outputs. */
export const HELD_TXS = 500_000;

/** One batch's outputs; per tx, where its outputs start (`outStart[i]` .. `outStart[i + 1]`). */
interface Chunk {
  readonly firstId: number;
  readonly keys: readonly string[];
  readonly outStart: Int32Array;
  readonly outputs: OutputColumns;
}

/** A pending spend of a batch: its spender, input and the output it names. */
export interface SpendOf {
  readonly spender: number;
  readonly vin: number;
  readonly prevTxid: Uint8Array;
  readonly prevVout: number;
}

export class HeldOutputs {
  private chunks: Chunk[] = [];
  /** Txid (latin1 of its bytes) to tx id; of a duplicate txid (BIP30) the newest copy, as the build resolves it. */
  private readonly byTxid = new Map<string, number>();
  private heldTxs = 0;
  /** Outputs of txs from this id on are held; the next batch starts at `next`. */
  private fromId = 0;
  private next = 0;

  constructor(readonly capacity = HELD_TXS) {}

  get from(): number {
    return this.fromId;
  }

  /** Before a batch numbered from `firstId`: one that does not follow the batches held would write over what is held. */
  align(firstId: number): void {
    if (this.chunks.length === 0) {
      this.fromId = firstId;
      this.next = firstId;
    } else if (firstId !== this.next) {
      throw new StoreError(`outputs held up to tx ${this.next}, a batch numbered from ${firstId}: the load resumes from its last write`);
    }
  }

  /**
   * Marks the held output a spend names, spent by it; returns its value, or null when no held output can take it
   * (not held, or no such output, or spent already: left to the build, which resolves or reports it).
   */
  spend(s: SpendOf): bigint | null {
    const id = this.byTxid.get(txidKey(s.prevTxid));
    if (id === undefined) return null;
    const chunk = this.chunkOf(id);
    const t = id - chunk.firstId;
    const at = chunk.outStart[t]! + s.prevVout;
    if (at >= chunk.outStart[t + 1]! || chunk.outputs.spentBy[at] !== null) return null;
    chunk.outputs.spentBy[at] = s.spender;
    chunk.outputs.spentVin[at] = s.vin;
    return chunk.outputs.value[at]!;
  }

  /** Holds a batch's outputs (in id order, every tx's from vout 0) with its txids. */
  add(firstId: number, txids: readonly Uint8Array[], outputs: OutputColumns): void {
    const outStart = new Int32Array(txids.length + 1);
    let at = 0;
    for (let t = 0; t < txids.length; t++) {
      outStart[t] = at;
      while (at < outputs.id.length && outputs.id[at] === firstId + t) at++;
    }
    outStart[txids.length] = at;
    const keys = txids.map(txidKey);
    keys.forEach((key, t) => this.byTxid.set(key, firstId + t));
    this.chunks.push({ firstId, keys, outStart, outputs });
    this.heldTxs += txids.length;
    this.next = firstId + txids.length;
  }

  /** The outputs to write now, oldest first: whole batches, until at most `capacity` txs are held (`all`: every one). */
  release(all = false): OutputColumns[] {
    const out: OutputColumns[] = [];
    while (this.chunks.length > 0 && (all || this.heldTxs > this.capacity)) {
      const chunk = this.chunks.shift()!;
      chunk.keys.forEach((key, t) => {
        if (this.byTxid.get(key) === chunk.firstId + t) this.byTxid.delete(key);
      });
      this.heldTxs -= chunk.keys.length;
      out.push(chunk.outputs);
    }
    this.fromId = this.chunks[0]?.firstId ?? this.next;
    return out;
  }

  private chunkOf(id: number): Chunk {
    for (let i = this.chunks.length - 1; i >= 0; i--) if (this.chunks[i]!.firstId <= id) return this.chunks[i]!;
    throw new StoreError(`tx ${id} is not held`);
  }
}
