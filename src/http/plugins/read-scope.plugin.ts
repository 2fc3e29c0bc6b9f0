/**
 * Each request's reads in one read scope (core/store/read-replicas.ts): with `[store] read_urls`, its first read
 * picks a replica and every later read of the request, service calls and pages alike, reads that one, so no answer
 * mixes two replicas' tips. Without replicas the scope is DIRECT_READS and nothing is installed (no per-request cost).
 * Entered in onRequest, the scope covers the rest of the request's life, a POST's body parsing included
 * (read-scope.plugin.test.ts, over a socket).
 */
import type { FastifyInstance } from 'fastify';
import { DIRECT_READS, type ReadScope } from '../../core/store/read-replicas.js';

export function installReadScope(app: FastifyInstance, scope: ReadScope): void {
  if (scope === DIRECT_READS) return;
  app.addHook('onRequest', (_request, _reply, done) => scope.run(done));
}
