/**
 * A request the Electrum server cannot answer as asked (a height beyond the tip, a tx not in the block named, a
 * history past the server's bound): JSON-RPC error code 1, "bad request", as ElectrumX and Fulcrum answer these.
 */
export class ElectrumRequestError extends Error {}

/** A history longer than the server's bound (Fulcrum's max_history): an error, never a truncated answer. */
export class HistoryTooLargeError extends ElectrumRequestError {
  constructor(readonly max: number) {
    super(`history too large: more than ${max} transactions (the server's electrum_max_history)`);
  }
}
