import type { FastifyError } from 'fastify';
import { BudgetSpentError, ConcurrencyExceededError, EventsExpiredError, IndexSyncingError, KeyFailuresLimitedError, OutpointError, QuotaExceededError, RawTxUnavailableError, ServerBusyError, StoreUnavailableError, TxRejectedError } from '../../core/domain/errors.js';

/**
 * What went wrong with a request, decided once for both API versions; each version's error handler only words it
 * in its own shape. Messages of the caller-facing kinds describe the caller's input and may be shown; `internal`
 * carries none (no internals leave the process).
 */
export type RequestFailure =
  /** The node refused a broadcast transaction; `reason` is its own message. */
  | { readonly kind: 'rejected'; readonly reason: string }
  /** The network's index is in its initial sync, or raw txs kept by a node that is down: temporary, with a wait. */
  | { readonly kind: 'syncing' | 'raw-unavailable'; readonly message: string; readonly retryAfter: number }
  /**
   * v3 plans: the day's quota (retry at midnight UTC), too many 401s from the client's network, or the requests in flight
   * at once (retry shortly); any API: a budget of something expensive spent for now (wallet derivations, feed bytes).
   */
  | { readonly kind: 'quota'; readonly message: string; readonly retryAfter: number }
  /** A shared expensive resource is at its cap with a full queue (wallet derivations): 503, retry after the wait. */
  | { readonly kind: 'busy'; readonly message: string; readonly retryAfter: number }
  | { readonly kind: 'concurrency'; readonly message: string }
  | { readonly kind: 'unauthorized'; readonly message: string }
  | { readonly kind: 'unsupported-network'; readonly message: string }
  /** Bad or unknown input (address, hash, height, page…); `field` names the parameter when the error knows it. */
  | { readonly kind: 'client'; readonly message: string; readonly field: string | null }
  /** A catch-up cursor the event log no longer answers from: the client must resync (410). */
  | { readonly kind: 'gone'; readonly message: string; readonly field: string }
  /** The network's node does not answer. */
  | { readonly kind: 'node-down' }
  /** The database does not answer (restarting): temporary, with a wait. */
  | { readonly kind: 'store-down'; readonly retryAfter: number }
  /** The route's schema refused the request: the missing property, else the path of the bad one. */
  | { readonly kind: 'validation'; readonly missing: string | null; readonly path: string | null }
  /** The framework's own 4xx (unreadable or oversized body, unsupported content type). */
  | { readonly kind: 'http'; readonly status: number; readonly message: string }
  | { readonly kind: 'internal' };

/** Core error codes whose message describes the caller's input. */
const CLIENT_CODES = new Set(['INVALID_ARGUMENT', 'NOT_FOUND', 'PARSE_ERROR']);

export function classifyRequestError(error: FastifyError | Error): RequestFailure {
  if (error instanceof TxRejectedError) return { kind: 'rejected', reason: error.reason };
  if (error instanceof IndexSyncingError) return { kind: 'syncing', message: error.message, retryAfter: error.details.retryAfterSeconds };
  if (error instanceof RawTxUnavailableError) return { kind: 'raw-unavailable', message: error.message, retryAfter: error.retryAfterSeconds };
  if (error instanceof QuotaExceededError || error instanceof KeyFailuresLimitedError || error instanceof BudgetSpentError) return { kind: 'quota', message: error.message, retryAfter: error.retryAfter };
  if (error instanceof ServerBusyError) return { kind: 'busy', message: error.message, retryAfter: error.retryAfter };
  if (error instanceof StoreUnavailableError) return { kind: 'store-down', retryAfter: error.retryAfterSeconds };
  if (error instanceof ConcurrencyExceededError) return { kind: 'concurrency', message: error.message };
  if (error instanceof EventsExpiredError) return { kind: 'gone', message: error.message, field: error.field };
  if (error instanceof OutpointError) {
    if (error.code === 'UNAUTHORIZED') return { kind: 'unauthorized', message: error.message };
    if (error.code === 'UNSUPPORTED_NETWORK') return { kind: 'unsupported-network', message: error.message };
    if (CLIENT_CODES.has(error.code)) {
      const field = 'field' in error && typeof error.field === 'string' ? error.field : null;
      return { kind: 'client', message: error.message, field };
    }
    if (error.code === 'RPC_UNAVAILABLE' || error.code === 'RPC_ERROR') return { kind: 'node-down' };
    return { kind: 'internal' };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const first = fastifyError.validation[0];
    const missing = (first?.params as { missingProperty?: string } | undefined)?.missingProperty ?? null;
    const path = first?.instancePath ? first.instancePath.replace(/^\//, '') : null;
    return { kind: 'validation', missing, path: path || null };
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) return { kind: 'http', status, message: fastifyError.message };
  return { kind: 'internal' };
}

/** The message users get when the node is down, in both versions. */
export const NODE_DOWN_MESSAGE = 'the network node is unavailable';

/** Both versions' message while the database does not answer (no driver detail leaves the process). */
export const STORE_DOWN_MESSAGE = 'the index database is unavailable; try again shortly';
