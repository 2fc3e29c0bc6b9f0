/**
 * The scripthash index's keys (docs/schema.md, "Scripthash index"): what Electrum clients send for an address is the
 * sha256 of its output script (protocol-basics.rst, "Script Hashes"), which no other part of the index can look up.
 * The index keeps a prefix of that hash per script row; a lookup reads the few rows with the prefix and compares the
 * whole hash of their bytes, so a prefix collision costs one more row read, never a wrong answer.
 *
 * SQLite: the first 6 bytes as a signed 48-bit integer, which SQLite stores in 6 bytes (a 7th or 8th byte per entry
 * would cost ~4 B/tx on the bench chain, for collisions that are already rare: about n/2^48 extra rows per lookup, 0.7 %
 * at Bitcoin's ~2 billion scripts). The store computes it in a deterministic SQL function registered on every
 * connection (sqlite-binding.ts), so a trigger keeps the table as scripts are inserted, whatever inserts them.
 * PostgreSQL: the first 8 bytes as a bigint, an expression index over its built-in sha256() (a bigint entry is as
 * large as a 6-byte one after alignment).
 */
import { createHash } from 'node:crypto';

/** The SQL function SQLite's trigger and reads call (registered per connection). */
export const SQLITE_SCRIPT_HASH_FUNCTION = 'outpoint_script_hash';

/** sha256 of a script's bytes, in natural (not Electrum's reversed) byte order. */
export function scriptSha256(script: Uint8Array): Buffer {
  return createHash('sha256').update(script).digest();
}

/** SQLite's key of a hash (32 bytes, natural order). */
export function sqliteScriptHashKey(sha256: Uint8Array): number {
  return Buffer.from(sha256.buffer, sha256.byteOffset, sha256.byteLength).readIntBE(0, 6);
}

/** The SQL function's body: a script's key (null for a null script, which no row has). */
export function sqliteScriptHashOf(script: unknown): number | null {
  return script instanceof Uint8Array ? sqliteScriptHashKey(scriptSha256(script)) : null;
}

/** PostgreSQL's key of a hash, as the decimal text of a signed bigint (bound as such). */
export function postgresScriptHashKey(sha256: Uint8Array): string {
  return Buffer.from(sha256.buffer, sha256.byteOffset, sha256.byteLength).readBigInt64BE(0).toString();
}

/** PostgreSQL's expression of a script column's key: built-in functions only, all immutable (an index may use it). */
export function postgresScriptHashExpression(column: string): string {
  return `(('x' || encode(substring(sha256(${column}) from 1 for 8), 'hex'))::bit(64)::bigint)`;
}
