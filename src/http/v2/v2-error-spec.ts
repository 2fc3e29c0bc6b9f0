import { LISTED_NETWORKS } from '../../chains/networks.js';

/**
 * How a v2 route reports failures, declared next to the route (route `config.v2Error`):
 * shape A lists the route's parameter keys with hint texts; shape B is {status, code: 404, message}.
 */
export type V2ErrorSpec =
  | { readonly shape: 'A'; readonly keys: readonly string[] }
  | { readonly shape: 'B'; readonly httpStatus: 404 | 400 };

declare module 'fastify' {
  interface FastifyContextConfig {
    v2Error?: V2ErrorSpec;
  }
}

export const shapeA = (...keys: string[]): V2ErrorSpec => ({ shape: 'A', keys });
export const shapeB: V2ErrorSpec = { shape: 'B', httpStatus: 404 };
/** short's failure is HTTP 400 while its body says code 404, as the interface lists it (docs/api-v2.md). */
export const shapeBShort: V2ErrorSpec = { shape: 'B', httpStatus: 400 };

/** Hints shown for every key of a shape-A failure; the failing key carries the specific reason instead. */
export const KEY_HINTS: Readonly<Record<string, string>> = {
  network: `Network is required (${LISTED_NETWORKS.join(', ')}) and must be served here`,
  address: 'A valid address of this network is required',
  confirmations: 'Minimum confirmations must be a non-negative integer (default 0)',
  after_tx: 'Optional: the id of a confirmed transaction to list after, or a minimum number of confirmations',
  txid: 'A valid transaction id is required',
  input_no: 'Optional: a valid input number of the transaction',
  output_no: 'A valid output number of the transaction is required',
  block_no: 'A valid block number is required',
  blockid: 'A valid block hash or block number is required',
  tx_hex: 'A signed transaction in hex is required',
};
