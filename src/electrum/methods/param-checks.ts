/**
 * Checks of method arguments, with the messages and codes Electrum clients get from ElectrumX and Fulcrum: a wrong
 * value is a "bad request" (code 1) naming what was expected; the wrong number of arguments is JSON-RPC's -32602
 * (method-spec.ts). Numbers may come as JSON numbers or digit strings (ElectrumX takes both); booleans as true/false,
 * 0/1 or their strings.
 */
import { ElectrumRpcError, RPC_CODES } from '../protocol/rpc-errors.js';

const bad = (message: string): ElectrumRpcError => new ElectrumRpcError(RPC_CODES.badRequest, message);
const HASH = /^[0-9a-fA-F]{64}$/;

/** 64 hex digits (a scripthash, txid or block hash), lower-cased. */
export function hash32(value: unknown, what: string): string {
  if (typeof value !== 'string' || !HASH.test(value)) throw bad(`Invalid ${what}: expected 64 hex digits`);
  return value.toLowerCase();
}

/** A non-negative integer at most `max`. */
export function count(value: unknown, what: string, max = 2 ** 31 - 1): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > max) throw bad(`Invalid ${what}: expected a non-negative integer${max < 2 ** 31 - 1 ? ` up to ${max}` : ''}`);
  return n;
}

export function flag(value: unknown, what: string): boolean {
  if (value === true || value === 1 || value === 'true' || value === '1') return true;
  if (value === false || value === 0 || value === 'false' || value === '0') return false;
  throw bad(`Invalid ${what} argument; expected boolean`);
}

/** A raw transaction in hex: non-empty, even length, at most `maxBytes` bytes. */
export function txHex(value: unknown, maxBytes: number): string {
  if (typeof value !== 'string' || value.length === 0 || value.length % 2 !== 0 || value.length > 2 * maxBytes || !/^[0-9a-fA-F]+$/.test(value)) {
    throw bad('Invalid raw transaction: expected a hex string');
  }
  return value;
}

/** A short text (an estimate mode, a client name). */
export function shortText(value: unknown, what: string, max = 64): string {
  if (typeof value !== 'string' || value.length > max) throw bad(`Invalid ${what}: expected a string of at most ${max} characters`);
  return value;
}
