import type { FastifyInstance } from 'fastify';

/** HTML forms and send_tx's documented sample (docs/api-v2.md) post application/x-www-form-urlencoded; fields become a plain object. */
export function installFormBody(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}
