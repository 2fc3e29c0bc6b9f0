/**
 * What the stand-in's RPC layer shares: JSON-RPC failures with Core's codes, UniValue's typed getters (whose
 * runtime_error becomes RPC_MISC_ERROR -1 with UniValue's own message), and a JSON writer that prints amounts
 * as ValueFromAmount does: a number with exactly 8 decimals.
 */
import { formatCoins } from '../../../src/core/domain/money.js';

export const RPC_MISC_ERROR = -1;
export const RPC_TYPE_ERROR = -3;
export const RPC_INVALID_ADDRESS_OR_KEY = -5;
export const RPC_INVALID_PARAMETER = -8;
export const RPC_DESERIALIZATION_ERROR = -22;
export const RPC_TRANSACTION_ERROR = -25;
export const RPC_TRANSACTION_REJECTED = -26;
export const RPC_TRANSACTION_ALREADY_IN_CHAIN = -27;
export const RPC_IN_WARMUP = -28;
export const RPC_METHOD_NOT_FOUND = -32601;
export const RPC_INVALID_REQUEST = -32600;
export const RPC_PARSE_ERROR = -32700;
export const RPC_INTERNAL_ERROR = -32603;

export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A koinu amount printed as a JSON number with 8 decimals. */
export class Amount {
  constructor(readonly koinu: bigint) {}
}

/** UniValue::write for the values the stand-in produces (bigint: an integer; Amount: 8 decimals). */
export function writeJson(value: unknown): string {
  if (value instanceof Amount) return formatCoins(value.koinu);
  if (typeof value === 'bigint') return value.toString();
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(writeJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${writeJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

type UniType = 'null' | 'bool' | 'number' | 'string' | 'array' | 'object';

export function uniType(v: unknown): UniType {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  return Array.isArray(v) ? 'array' : 'object';
}

/** request.params with UniValue's get_int/get_bool/get_str (a wrong type is a runtime_error: -1). */
export class Params {
  constructor(readonly values: readonly unknown[]) {}

  get size(): number {
    return this.values.length;
  }

  has(i: number): boolean {
    return i < this.values.length;
  }

  raw(i: number): unknown {
    return this.values[i] ?? null;
  }

  int(i: number): number {
    const v = this.values[i];
    if (typeof v !== 'number') throw new RpcFailure(RPC_MISC_ERROR, 'JSON value is not an integer as expected');
    if (!Number.isInteger(v)) throw new RpcFailure(RPC_MISC_ERROR, 'JSON integer out of range');
    return v;
  }

  bool(i: number): boolean {
    const v = this.values[i];
    if (typeof v !== 'boolean') throw new RpcFailure(RPC_MISC_ERROR, 'JSON value is not a boolean as expected');
    return v;
  }

  str(i: number): string {
    const v = this.values[i];
    if (typeof v !== 'string') throw new RpcFailure(RPC_MISC_ERROR, 'JSON value is not a string as expected');
    return v;
  }

  /** ParseHashV: 64 hex characters or RPC_INVALID_PARAMETER. */
  hash(i: number, name: string): string {
    const v = this.str(i);
    if (!/^[0-9a-fA-F]*$/.test(v)) throw new RpcFailure(RPC_INVALID_PARAMETER, `${name} must be hexadecimal string (not '${v}')`);
    if (v.length !== 64) throw new RpcFailure(RPC_INVALID_PARAMETER, `${name} must be of length 64 (not ${v.length}, for '${v}')`);
    return v.toLowerCase();
  }

  /** RPCTypeCheck: positional types, RPC_TYPE_ERROR "Expected type bool, got number". */
  typeCheck(types: readonly UniType[]): void {
    types.forEach((t, i) => {
      if (i >= this.values.length) return;
      const actual = uniType(this.values[i]);
      if (actual !== t) throw new RpcFailure(RPC_TYPE_ERROR, `Expected type ${t}, got ${actual}`);
    });
  }
}

/** uint256S: a lenient hex parse (getblock/getblockheader take any string and then find no block). */
export function uint256S(text: string): string {
  const hex = text.trim().replace(/^0x/i, '').match(/^[0-9a-fA-F]*/)![0].toLowerCase();
  return hex.slice(-64).padStart(64, '0');
}
