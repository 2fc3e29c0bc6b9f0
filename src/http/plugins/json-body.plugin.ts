import type { FastifyInstance } from 'fastify';

/**
 * `content-type: application/json` with an empty body is taken as no body. Many HTTP client wrappers send the header
 * on every call, DELETE and bodiless POSTs (re-send) included, and Fastify's own parser answers those 400. A route
 * that needs a body still refuses the missing one through its schema; anything else is parsed by Fastify's parser
 * with its defaults (prototype and constructor poisoning refused).
 */
export function installJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    // Fastify's own parser answers through `done` (it returns nothing).
    void parse(request, body as string, done);
  });
}
