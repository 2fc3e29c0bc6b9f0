/** Shared parts of the dump file format (docs/snapshots.md, "File format"). */

/** The first bytes inside the gzip stream: names the format and its version. */
export const DUMP_MAGIC = Buffer.from('OUTPOINT-DUMP 1\n', 'latin1');

export interface TableDigest {
  readonly table: string;
  readonly rows: number;
  /** SHA-256 (hex) of the table's row frames in canonical order. */
  readonly sha256: string;
}

export interface DumpManifest {
  readonly kind: 'snapshot' | 'backup';
  readonly created_at: string;
  readonly header_sha256: string;
  readonly tables: readonly TableDigest[];
}

/** A JSON frame: [u32 length][UTF-8 JSON]. */
export function jsonFrame(value: object): Buffer {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}

/** Why a dump file is refused; the message is meant for the operator. */
export class DumpError extends Error {
  override name = 'DumpError';
}
