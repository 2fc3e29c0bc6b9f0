import type { FastifyReply } from 'fastify';
import type { Release } from '../../core/limits/concurrency-limiter.js';

/** Holds the slot until the response has been sent or the client went away, whichever comes first. */
export function releaseWhenDone(reply: FastifyReply, release: Release): void {
  reply.raw.once('finish', release);
  reply.raw.once('close', release);
}
