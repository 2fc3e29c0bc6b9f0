import type { FastifyInstance } from 'fastify';

/**
 * Strict-Transport-Security on every answer of an HTTPS server (`[http] tls_cert_file`): browsers that saw it use
 * https for this host for `maxAgeSeconds`, so a later http:// link or a stripping proxy cannot downgrade a session.
 * Not sent over plain HTTP (browsers ignore it there; behind a TLS-terminating proxy the proxy sends it), and never
 * with includeSubDomains or preload: those commit other hosts of the domain, which is the operator's call.
 */
export function installHsts(app: FastifyInstance, maxAgeSeconds: number): void {
  if (maxAgeSeconds <= 0) return;
  const value = `max-age=${maxAgeSeconds}`;
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('strict-transport-security', value);
    done(null, payload);
  });
}
