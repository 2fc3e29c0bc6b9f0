import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../core/infrastructure/logger.js';
import { classifyRequestError, NODE_DOWN_MESSAGE, STORE_DOWN_MESSAGE } from '../shared/request-failure.js';
import { KEY_HINTS, type V2ErrorSpec } from './v2-error-spec.js';

export interface Failure {
  readonly status: number;
  /** The parameter at fault (a shape-A key), when known. */
  readonly field: string | null;
  readonly message: string;
  /** Seconds, sent as Retry-After. */
  readonly retryAfter?: number;
}

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

/** The shared classification (http/shared/request-failure.ts) in v2's terms: a status, the key at fault, a message. */
function classify(error: FastifyError | Error): Failure {
  const failure = classifyRequestError(error);
  switch (failure.kind) {
    case 'rejected':
      return { status: 404, field: 'tx_hex', message: failure.reason };
    // The network's index is in its initial sync: the network is what fails, so shape A reports it under `network`.
    case 'syncing':
      return { status: 503, field: 'network', message: failure.message, retryAfter: failure.retryAfter };
    // Raw bytes kept by a node that is down (raw_txs = "node"): temporary like the initial sync, reported the same way.
    case 'raw-unavailable':
      return { status: 503, field: null, message: failure.message, retryAfter: failure.retryAfter };
    case 'unsupported-network':
      return { status: 404, field: 'network', message: failure.message };
    // A budget of something expensive spent for now (the catch-up feed's bytes per client network): retry after the wait.
    case 'quota':
      return { status: 429, field: null, message: failure.message, retryAfter: failure.retryAfter };
    case 'busy':
      return { status: 503, field: null, message: failure.message, retryAfter: failure.retryAfter };
    case 'client':
      return { status: 404, field: failure.field, message: failure.message };
    case 'gone':
      return { status: 410, field: failure.field, message: failure.message };
    case 'node-down':
      return { status: 503, field: null, message: NODE_DOWN_MESSAGE };
    case 'store-down':
      return { status: 503, field: null, message: STORE_DOWN_MESSAGE, retryAfter: failure.retryAfter };
    case 'validation': {
      const field = failure.missing ?? failure.path;
      return { status: 404, field, message: `invalid ${field ?? 'request'}` };
    }
    // Unparseable or oversized bodies, unsupported content types: the caller's fault, reported as such.
    case 'http':
      return { status: failure.status === 413 ? 413 : 404, field: null, message: failure.message };
    // v2 has no keys or plans: plan concurrency and authorization errors cannot come from its routes.
    default:
      return { status: 500, field: null, message: 'internal error' };
  }
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
