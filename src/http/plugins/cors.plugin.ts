import type { FastifyInstance } from 'fastify';

/** Headers a cross-origin script may read: the rate-limit state, so browser clients can pace themselves. */
const EXPOSED = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After';

/** v2 has no same-origin restriction: any origin, GET and POST, with preflight answered here. */
export function installCors(app: FastifyInstance): void {
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', EXPOSED);
  });
  app.options('/*', { config: { rateLimitExempt: true } }, async (_request, reply) => {
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, POST, OPTIONS')
      .header('access-control-allow-headers', 'Content-Type')
      .header('access-control-max-age', '86400');
    return reply.send();
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Not counted by the rate limit (CORS preflight, the OpenAPI document). */
    rateLimitExempt?: boolean;
  }
}
