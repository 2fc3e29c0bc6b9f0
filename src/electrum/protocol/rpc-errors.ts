/**
 * JSON-RPC error codes as the Electrum servers use them (JSON-RPC 2.0's, and ElectrumX's application codes 1-4, which
 * Fulcrum keeps), and the one place an error thrown while answering becomes a code and a message: the services' typed
 * errors keep their meaning; anything else is an internal error whose details stay in the log.
 */
import { IndexSyncingError, OutpointError, RawTxUnavailableError, RpcError, RpcUnavailableError, ScriptHashIndexBuildingError, StoreUnavailableError } from '../../core/domain/errors.js';
import { ElectrumRequestError } from '../../services/electrum/electrum-request-error.js';

export const RPC_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  /** Also the server's "not now" (an index syncing or being built, the store or node away): ask again later. */
  internalError: -32603,
  badRequest: 1,
  daemonError: 2,
  excessiveFlood: 3,
  limitExceeded: 4,
} as const;

/** An error answered as given. `disconnect`: the connection is closed after the answer is written. */
export class ElectrumRpcError extends Error {
  constructor(readonly code: number, message: string, readonly disconnect = false) {
    super(message);
  }
}

export interface RpcFailure {
  readonly code: number;
  readonly message: string;
  /** Not a client's doing: worth a log line. */
  readonly unexpected: boolean;
}

export function rpcFailure(error: unknown): RpcFailure {
  const known = (code: number, message: string): RpcFailure => ({ code, message, unexpected: false });
  if (error instanceof ElectrumRpcError) return known(error.code, error.message);
  if (error instanceof ElectrumRequestError) return known(RPC_CODES.badRequest, error.message);
  if (error instanceof IndexSyncingError || error instanceof ScriptHashIndexBuildingError || error instanceof RawTxUnavailableError
    || error instanceof StoreUnavailableError) return known(RPC_CODES.internalError, error.message);
  // The node answered with an error, or did not answer: the client learns which, as Fulcrum's "daemon error".
  if (error instanceof RpcError) return known(RPC_CODES.daemonError, `daemon error: ${error.message}`);
  if (error instanceof RpcUnavailableError) return known(RPC_CODES.daemonError, `daemon error: the node is not reachable (${error.message})`);
  if (error instanceof OutpointError && error.code === 'INVALID_ARGUMENT') return known(RPC_CODES.invalidParams, error.message);
  return { code: RPC_CODES.internalError, message: 'internal error', unexpected: true };
}
