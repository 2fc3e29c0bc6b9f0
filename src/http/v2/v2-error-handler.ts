import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../core/logger.js';
import { IndexSyncingError, OutpointError, RawTxUnavailableError } from '../../core/errors.js';
import { TxRejectedError } from '../../core/broadcaster.js';
import { KEY_HINTS, type V2ErrorSpec } from './v2-error-spec.js';

export interface Failure {
  readonly status: number;
  /** The parameter at fault (a shape-A key), when known. */
  readonly field: string | null;
  readonly message: string;
  /** Seconds, sent as Retry-After. */
  readonly retryAfter?: number;
}

/** Messages of these errors describe the caller's input and may be shown; anything else is an internal failure. */
const CLIENT_CODES = new Set(['INVALID_ARGUMENT', 'NOT_FOUND', 'UNSUPPORTED_NETWORK', 'REJECTED', 'PARSE_ERROR']);

/**
 * The one v2 error mapping: core error codes and Fastify's own request errors (validation, bodies)
 * become the route's declared shape. Internal failures answer 500/503 without internals.
 */
export function v2ErrorHandler(logger: Logger) {
  return (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const failure = classify(error);
    // A failure with Retry-After is a temporary state the client is told about (initial sync, node down), not a fault to log.
    if (failure.status >= 500 && failure.retryAfter === undefined) {
      logger.error('request failed', { reqId: request.id, url: request.url.slice(0, 200), error: error.message });
    }
    return v2Failure(reply, request.routeOptions.config.v2Error ?? null, failure);
  };
}

/** Answers a failure in the route's declared shape (A or B); also used for paths that leave out a segment. */
export function v2Failure(reply: FastifyReply, spec: V2ErrorSpec | null, failure: Failure): FastifyReply {
  if (failure.retryAfter !== undefined) reply.header('Retry-After', String(failure.retryAfter));
  return reply.code(statusFor(spec, failure)).type('application/json; charset=utf-8').send(bodyFor(spec, failure));
}

function classify(error: FastifyError | Error): Failure {
  if (error instanceof TxRejectedError) return { status: 404, field: 'tx_hex', message: error.reason };
  // The network's index is in its initial sync: the network is what fails, so shape A reports it under `network`.
  if (error instanceof IndexSyncingError) return { status: 503, field: 'network', message: error.message, retryAfter: error.details.retryAfterSeconds };
  // Raw bytes kept by a node that is down (raw_txs = "node"): temporary like the initial sync, reported the same way.
  if (error instanceof RawTxUnavailableError) return { status: 503, field: null, message: error.message, retryAfter: error.retryAfterSeconds };
  if (error instanceof OutpointError) {
    if (error.code === 'UNSUPPORTED_NETWORK') return { status: 404, field: 'network', message: error.message };
    if (CLIENT_CODES.has(error.code)) {
      const field = 'field' in error && typeof error.field === 'string' ? error.field : null;
      return { status: 404, field, message: error.message };
    }
    if (error.code === 'RPC_UNAVAILABLE' || error.code === 'RPC_ERROR') return { status: 503, field: null, message: 'the network node is unavailable' };
    return { status: 500, field: null, message: 'internal error' };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const first = fastifyError.validation[0];
    const missing = (first?.params as { missingProperty?: string } | undefined)?.missingProperty;
    const field = missing ?? (first?.instancePath ? first.instancePath.replace(/^\//, '') : null);
    return { status: 404, field: field || null, message: `invalid ${field || 'request'}` };
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    // Unparseable or oversized bodies, unsupported content types: the caller's fault, reported as such.
    return { status: status === 413 ? 413 : 404, field: null, message: fastifyError.message };
  }
  return { status: 500, field: null, message: 'internal error' };
}

function statusFor(spec: V2ErrorSpec | null, failure: Failure): number {
  if (failure.status !== 404) return failure.status;
  return spec?.shape === 'B' ? spec.httpStatus : 404;
}

function bodyFor(spec: V2ErrorSpec | null, failure: Failure): unknown {
  if (spec?.shape === 'B') return { status: 'fail', code: failure.status === 404 ? 404 : failure.status, message: failure.message };
  // Failures naming no parameter (node down, internal, oversized body) have no key of the route to go under.
  if (failure.status !== 404 && failure.field === null) return { status: 'fail', data: { request: failure.message } };
  const keys = spec?.keys ?? [];
  const data: Record<string, string> = {};
  for (const key of keys) data[key] = KEY_HINTS[key] ?? 'Invalid value';
  // A failure naming no known key (e.g. an unreadable body) is reported on the route's last key (the request's payload).
  const at = failure.field !== null && keys.includes(failure.field) ? failure.field : (keys[keys.length - 1] ?? 'request');
  data[at] = failure.message;
  return { status: 'fail', data };
}
