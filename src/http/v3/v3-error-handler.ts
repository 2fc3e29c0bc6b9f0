import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../core/infrastructure/logger.js';
import { classifyRequestError, NODE_DOWN_MESSAGE, STORE_DOWN_MESSAGE } from '../shared/request-failure.js';

/** The v3 failure body: always `{status: "fail", data: {error_message}}` as application/json. */
export function v3Failure(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ status: 'fail', data: { error_message: message } });
}

/**
 * The one v3 error mapping: 401 authentication, 429 quota or concurrency (with Retry-After), 404 for anything wrong with
 * the request's network, address, hash, height, page or timestamp (and transactions the node rejects),
 * the framework's own 4xx for unreadable bodies, 503 when the node is down or the network's index is in its initial
 * sync or the raw txs a route shows are kept by a node that is down or every wallet derivation slot and its queue are
 * taken (the last three with Retry-After), 500 otherwise (no internals).
 */
export function v3ErrorHandler(logger: Logger) {
  return (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const failure = classifyRequestError(error);
    switch (failure.kind) {
      case 'quota':
      case 'busy':
      case 'syncing':
      case 'raw-unavailable':
        reply.header('Retry-After', String(failure.retryAfter));
        return v3Failure(reply, failure.kind === 'quota' ? 429 : 503, failure.message);
      case 'concurrency':
        reply.header('Retry-After', '1');
        return v3Failure(reply, 429, failure.message);
      case 'rejected':
        return v3Failure(reply, 404, `transaction rejected by the network: ${failure.reason}`);
      case 'unauthorized':
        return v3Failure(reply, 401, failure.message);
      case 'client':
      case 'unsupported-network':
        return v3Failure(reply, 404, failure.message);
      case 'gone':
        return v3Failure(reply, 410, failure.message);
      case 'node-down':
        return v3Failure(reply, 503, NODE_DOWN_MESSAGE);
      case 'store-down':
        reply.header('Retry-After', String(failure.retryAfter));
        return v3Failure(reply, 503, STORE_DOWN_MESSAGE);
      case 'validation':
        return v3Failure(reply, 404, `invalid ${failure.path ?? 'request'}`);
      case 'http':
        return v3Failure(reply, failure.status, failure.message.slice(0, 200));
      case 'internal':
        logger.error('v3 request failed', { reqId: request.id, url: request.url.slice(0, 200), error: error.message });
        return v3Failure(reply, 500, 'internal error');
    }
  };
}
