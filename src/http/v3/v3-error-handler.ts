import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { TxRejectedError } from '../../core/broadcaster.js';
import { IndexSyncingError, OutpointError, RawTxUnavailableError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { ConcurrencyExceededError, QuotaExceededError } from '../../services/account-errors.js';

/** Errors whose message describes the caller's input (shown as is); anything else is an internal failure. */
const NOT_FOUND_CODES = new Set(['INVALID_ARGUMENT', 'NOT_FOUND', 'UNSUPPORTED_NETWORK', 'PARSE_ERROR']);

/** The v3 failure body: always `{status: "fail", data: {error_message}}` as application/json. */
export function v3Failure(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ status: 'fail', data: { error_message: message } });
}

/**
 * The one v3 error mapping: 401 authentication, 429 quota or concurrency (with Retry-After), 404 for anything wrong with
 * the request's network, address, hash, height, page or timestamp (and transactions the node rejects),
 * the framework's own 4xx for unreadable bodies, 503 when the node is down or the network's index is in its initial
 * sync or the raw txs a route shows are kept by a node that is down (the last two with Retry-After), 500 otherwise (no internals).
 */
export function v3ErrorHandler(logger: Logger) {
  return (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (error instanceof QuotaExceededError) {
      reply.header('Retry-After', String(error.retryAfter));
      return v3Failure(reply, 429, error.message);
    }
    if (error instanceof ConcurrencyExceededError) {
      reply.header('Retry-After', '1');
      return v3Failure(reply, 429, error.message);
    }
    if (error instanceof IndexSyncingError) {
      reply.header('Retry-After', String(error.details.retryAfterSeconds));
      return v3Failure(reply, 503, error.message);
    }
    if (error instanceof RawTxUnavailableError) {
      reply.header('Retry-After', String(error.retryAfterSeconds));
      return v3Failure(reply, 503, error.message);
    }
    if (error instanceof TxRejectedError) return v3Failure(reply, 404, `transaction rejected by the network: ${error.reason}`);
    if (error instanceof OutpointError) {
      if (error.code === 'UNAUTHORIZED') return v3Failure(reply, 401, error.message);
      if (NOT_FOUND_CODES.has(error.code)) return v3Failure(reply, 404, error.message);
      if (error.code === 'RPC_UNAVAILABLE' || error.code === 'RPC_ERROR') return v3Failure(reply, 503, 'the network node is unavailable');
      logger.error('v3 request failed', { reqId: request.id, url: request.url.slice(0, 200), error: error.message });
      return v3Failure(reply, 500, 'internal error');
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      const first = fastifyError.validation[0];
      const field = first?.instancePath ? first.instancePath.replace(/^\//, '') : 'request';
      return v3Failure(reply, 404, `invalid ${field}`);
    }
    const status = fastifyError.statusCode;
    if (status !== undefined && status >= 400 && status < 500) return v3Failure(reply, status, error.message.slice(0, 200));
    logger.error('v3 request failed', { reqId: request.id, url: request.url.slice(0, 200), error: error.message });
    return v3Failure(reply, 500, 'internal error');
  };
}
