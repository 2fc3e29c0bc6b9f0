import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../core/infrastructure/logger.js';

/** An id a proxy may have given the request: kept when it is short and plain, so it cannot forge log content. */
const FORWARDED_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Random per process, so ids of several API processes behind one balancer do not collide. */
const PROCESS_PREFIX = randomBytes(4).toString('hex');
let sequence = 0;

/**
 * Fastify's genReqId: the caller's (or its proxy's) `X-Request-Id` when well formed, else this process's random
 * prefix and a sequence number (`3f9a0c1e-1b7`: unique without a random draw per request). The id is on every log
 * line a request causes and in the answer's `X-Request-Id`, so a user's report finds its lines.
 */
export function requestId(req: IncomingMessage): string {
  const header = req.headers['x-request-id'];
  const given = Array.isArray(header) ? header[0] : header;
  return given !== undefined && FORWARDED_ID.test(given) ? given : `${PROCESS_PREFIX}-${(++sequence).toString(36)}`;
}

/** Echoes the id and writes one `debug` line per answered request (method, path without query, status, time). */
export function installRequestLog(app: FastifyInstance, logger: Logger): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  if (!logger.debug) return;
  const debug = logger.debug.bind(logger);
  app.addHook('onResponse', (request, reply, done) => {
    debug('http request', {
      reqId: request.id,
      method: request.method,
      path: request.url.split('?')[0]!.slice(0, 200),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    });
    done();
  });
}
