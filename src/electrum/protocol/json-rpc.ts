/**
 * JSON-RPC 2.0 as Electrum servers speak it (protocol-basics.rst, "Message Stream"): one message per line (TCP, TLS) or
 * per frame (WebSocket), a request or a batch (an array of requests, answered by an array). Requests that carry no
 * `id` are notifications and get no answer. Answers always say "jsonrpc": "2.0"; a client writing JSON-RPC 1.0 style
 * (no "jsonrpc") is answered the same way, as ElectrumX and Fulcrum do.
 */
import { RPC_CODES } from './rpc-errors.js';

export type RpcId = string | number | null;

export interface RpcCall {
  readonly id: RpcId;
  readonly method: string;
  /** An array or an object (by name), as the client sent it; undefined when absent. */
  readonly params: unknown;
  /** No id: nothing is answered. */
  readonly notification: boolean;
}

/** An item the server answers with an error without calling anything (not a request at all). */
export interface RpcRefusal {
  readonly id: RpcId;
  readonly code: number;
  readonly message: string;
}

export type Incoming =
  | { readonly batch: false; readonly item: RpcCall | RpcRefusal }
  | { readonly batch: true; readonly items: readonly (RpcCall | RpcRefusal)[] };

export function isCall(item: RpcCall | RpcRefusal): item is RpcCall {
  return (item as RpcCall).method !== undefined;
}

function callOf(value: unknown): RpcCall | RpcRefusal {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { id: null, code: RPC_CODES.invalidRequest, message: 'Invalid Request' };
  const v = value as Record<string, unknown>;
  const hasId = 'id' in v;
  const id = v.id;
  if (hasId && id !== null && typeof id !== 'string' && (typeof id !== 'number' || !Number.isFinite(id))) {
    return { id: null, code: RPC_CODES.invalidRequest, message: 'Invalid Request: bad id' };
  }
  const rpcId = (hasId ? id : null) as RpcId;
  if (typeof v.method !== 'string') return { id: rpcId, code: RPC_CODES.invalidRequest, message: 'Invalid Request: no method' };
  if (v.params !== undefined && (v.params === null || typeof v.params !== 'object')) {
    return { id: rpcId, code: RPC_CODES.invalidParams, message: 'Invalid params: expected an array or an object' };
  }
  return { id: rpcId, method: v.method, params: v.params, notification: !hasId };
}

/** One line or frame. Never throws: garbage becomes a refusal (-32700 or -32600) answered with id null. */
export function parseIncoming(text: string): Incoming {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { batch: false, item: { id: null, code: RPC_CODES.parseError, message: 'Parse error' } };
  }
  if (!Array.isArray(value)) return { batch: false, item: callOf(value) };
  if (value.length === 0) return { batch: false, item: { id: null, code: RPC_CODES.invalidRequest, message: 'Invalid Request: empty batch' } };
  return { batch: true, items: value.map(callOf) };
}

const BIG = '@@big:';

/** JSON of a result; amounts (bigint) as JSON integers, exact beyond 2^53 (Dogecoin balances can pass it). */
export function jsonOf(value: unknown): string {
  let big = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    if (v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER)) return Number(v);
    big = true;
    return `${BIG}${v}`;
  });
  return big ? text.replace(/"@@big:(-?\d+)"/g, '$1') : text;
}

/** The answer to a call; `resultJson` is already JSON (jsonOf, or a plain JSON.stringify). */
export function resultMessage(id: RpcId, resultJson: string): string {
  return `{"jsonrpc":"2.0","result":${resultJson},"id":${JSON.stringify(id)}}`;
}

export function errorMessage(id: RpcId, code: number, message: string): string {
  return `{"jsonrpc":"2.0","error":${JSON.stringify({ code, message })},"id":${JSON.stringify(id)}}`;
}

export function notificationMessage(method: string, paramsJson: string): string {
  return `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":${paramsJson}}`;
}
