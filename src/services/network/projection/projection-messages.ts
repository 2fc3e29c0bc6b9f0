/**
 * What crosses to the projection's worker thread (projection-thread.ts): the snapshot's entries in pieces, columns of
 * what the projection reads (a structured clone of typed arrays and strings costs a fraction of one of objects with a
 * BigInt each), then the options that start the pass; back come the projected blocks or the error.
 */
import type { MempoolSourceEntry } from '../../../core/sources/mempool-source.js';
import type { ProjectedBlock, ProjectionOptions } from './mempool-projection.js';

export interface EntryPiece {
  readonly txids: string[];
  /** Base units: exact as float64 (a fee is far below 2^53, as TxGraph takes it). */
  readonly fee: Float64Array;
  readonly vsize: Float64Array;
  readonly weight: Float64Array;
  /** -1: unknown (the projection then counts the vsize). */
  readonly size: Float64Array;
  /** Only the entries with in-mempool parents: their index in the piece, and the parents. */
  readonly dependents: Uint32Array;
  readonly depends: string[][];
}

export type ProjectionRequest =
  | { readonly id: number; readonly kind: 'entries'; readonly piece: EntryPiece }
  | { readonly id: number; readonly kind: 'project'; readonly options: ProjectionOptions };

export type ProjectionReply = { readonly id: number; readonly blocks: ProjectedBlock[] } | { readonly id: number; readonly error: string };

export function encodeEntries(entries: readonly MempoolSourceEntry[], from: number, to: number): EntryPiece {
  const n = to - from;
  const piece = {
    txids: new Array<string>(n), fee: new Float64Array(n), vsize: new Float64Array(n), weight: new Float64Array(n), size: new Float64Array(n),
    dependents: [] as number[], depends: [] as string[][],
  };
  for (let i = 0; i < n; i++) {
    const e = entries[from + i]!;
    piece.txids[i] = e.txid;
    piece.fee[i] = Number(e.fee);
    piece.vsize[i] = e.vsize;
    piece.weight[i] = e.weight;
    piece.size[i] = e.size ?? -1;
    if (e.depends.length > 0) {
      piece.dependents.push(i);
      piece.depends.push([...e.depends]);
    }
  }
  return { ...piece, dependents: Uint32Array.from(piece.dependents) };
}

/** Appends a piece's entries to `into`, as the projection reads them. */
export function decodeEntries(piece: EntryPiece, into: MempoolSourceEntry[]): void {
  const parents = new Map<number, string[]>();
  piece.dependents.forEach((i, k) => parents.set(i, piece.depends[k]!));
  for (let i = 0; i < piece.txids.length; i++) {
    const size = piece.size[i]!;
    into.push({
      txid: piece.txids[i]!, fee: BigInt(piece.fee[i]!), vsize: piece.vsize[i]!, weight: piece.weight[i]!,
      size: size < 0 ? null : size, depends: parents.get(i) ?? [],
    });
  }
}
