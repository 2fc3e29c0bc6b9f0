/** What the stand-in node's handlers share: Core's error codes, a failure carrying one, and the reply shapes. */

export const RPC_MISC_ERROR = -1;
export const RPC_INVALID_PARAMETER = -8;
export const RPC_INVALID_ADDRESS_OR_KEY = -5;
export const RPC_METHOD_NOT_FOUND = -32601;
export const RPC_PARSE_ERROR = -32700;
export const RPC_VERIFY_REJECTED = -26;

/** A reply's result: JSON text, or raw bytes to send as a JSON string of hex. */
export type Result = { readonly json: string } | { readonly hex: Buffer };
export type Reply = { readonly result: Result } | { readonly error: { readonly code: number; readonly message: string } };

export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const json = (value: unknown): Result => ({ json: JSON.stringify(value) });

/** Base units as bitcoind prints an amount in JSON: a literal decimal with 8 places (the client reads it exactly). */
export function coins(sats: number): string {
  return `${Math.floor(sats / 1e8)}.${String(sats % 1e8).padStart(8, '0')}`;
}
