/**
 * A snapshot's header as read from the file: every field checked before any is used (the tip goes to the node and
 * into SQL, the salt into the store), so a malformed or hand-edited header is one clear DumpError for the operator,
 * never a TypeError from deep inside the import.
 */
import { NETWORK_IDS } from '../../../core/domain/network.js';
import { DumpError } from './dump-format.js';
import type { SnapshotHeader } from './snapshot-export.js';

export function checkSnapshotHeader(value: unknown, file: string): SnapshotHeader {
  const bad = (what: string): DumpError => new DumpError(`${file} is not a chain snapshot (its header ${what}); nothing was loaded`);
  if (!isObject(value)) throw bad('is not an object');
  const { kind, network, tip, schema_version, script_key_salt, script_key_bits, source_engine, created_at } = value;
  if (kind !== 'snapshot') throw bad('is of another kind of dump');
  if (typeof network !== 'string' || !(NETWORK_IDS as readonly string[]).includes(network)) throw bad('names no known network');
  if (!isObject(tip)) throw bad('has no tip');
  if (typeof tip['height'] !== 'number' || !Number.isSafeInteger(tip['height']) || tip['height'] < 0) throw bad('has a malformed tip height');
  if (typeof tip['hash'] !== 'string' || !/^[0-9a-f]{64}$/.test(tip['hash'])) throw bad('has a malformed tip hash');
  if (typeof tip['next_tx'] !== 'string' || !/^\d{1,19}$/.test(tip['next_tx'])) throw bad('has a malformed next_tx');
  if (typeof schema_version !== 'number' || !Number.isSafeInteger(schema_version)) throw bad('has a malformed schema_version');
  if (typeof script_key_salt !== 'string' || !/^[0-9a-f]{32}$/.test(script_key_salt)) throw bad('has a malformed script_key_salt');
  if (script_key_bits !== undefined && (typeof script_key_bits !== 'number' || !Number.isInteger(script_key_bits) || script_key_bits < 1 || script_key_bits > 53)) {
    throw bad('has a malformed script_key_bits');
  }
  if (typeof source_engine !== 'string' || typeof created_at !== 'string') throw bad('lacks source_engine or created_at');
  return value as unknown as SnapshotHeader;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
