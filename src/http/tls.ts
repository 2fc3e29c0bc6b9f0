import type { Server as HttpsServer } from 'node:https';
import type { FastifyInstance } from 'fastify';

/** A PEM certificate (chain) and its private key: what the HTTPS server presents. */
export interface TlsCredentials {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
}

/**
 * Swaps the certificate of a listening HTTPS app for new connections (established ones keep theirs), e.g. after a
 * renewal, without a restart or a dropped websocket. Throws, leaving the current certificate in place, when the
 * new pair is unusable (unreadable PEM, key not matching the certificate).
 */
export function replaceTlsCredentials(app: FastifyInstance, credentials: TlsCredentials): void {
  const server = app.server as unknown as HttpsServer;
  if (typeof server.setSecureContext !== 'function') throw new Error('the app was created without TLS');
  server.setSecureContext({ cert: credentials.cert, key: credentials.key });
}
