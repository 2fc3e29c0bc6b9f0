/** Raw JSON-RPC over HTTP for checking what a node sends byte for byte (status codes, number formats). */
import { RpcError } from '../../../src/core/domain/errors.js';

export interface RawAnswer {
  readonly status: number;
  readonly text: string;
  /** The parsed body, or undefined when it is not JSON. */
  readonly json: unknown;
}

/** POSTs `body` (an object is JSON-encoded) to the node; `auth` is "user:password" (default: the URL's). */
export async function rawRpc(url: string, body: unknown, options: { auth?: string | null; method?: string; path?: string } = {}): Promise<RawAnswer> {
  const parsed = new URL(url);
  const auth = options.auth === undefined ? `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}` : options.auth;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth !== null) headers.authorization = `Basic ${Buffer.from(auth).toString('base64')}`;
  const res = await fetch(`http://${parsed.host}${options.path ?? '/'}`, {
    method: options.method ?? 'POST',
    headers,
    ...((options.method ?? 'POST') === 'POST' ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

/** One call's reply object ({result, error, id}). */
export function call(method: string, params: unknown[] = [], id: unknown = 1): Record<string, unknown> {
  return { jsonrpc: '1.0', id, method, params };
}

/** The RpcError a call fails with (an assertion failure when it succeeds). */
export async function rpcError(promise: Promise<unknown>): Promise<RpcError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof RpcError) return err;
    throw err;
  }
  throw new Error('expected an RPC error');
}
