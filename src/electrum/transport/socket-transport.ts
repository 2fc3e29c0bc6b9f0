/**
 * TCP and TLS connections of the Electrum server: newline-delimited messages over a socket (line-framer.ts), each
 * message handed to its session, each answer written with its newline. A line past the request bound closes the
 * connection, and nothing else happens to the server.
 */
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import type { TlsCredentials } from './tls-credentials.js';
import { LineFramer } from '../protocol/line-framer.js';
import type { Transport } from '../sessions/electrum-session.js';
import type { SessionHost } from '../sessions/session-host.js';

function socketTransport(socket: Socket | TLSSocket, kind: 'tcp' | 'ssl'): Transport {
  return {
    kind,
    remoteAddress: socket.remoteAddress ?? 'unknown',
    localAddress: socket.localAddress ?? '127.0.0.1',
    localPort: socket.localPort ?? 0,
    send: (message) => {
      if (!socket.destroyed) socket.write(`${message}\n`);
    },
    bufferedBytes: () => socket.writableLength,
    pauseReading: () => socket.pause(),
    resumeReading: () => socket.resume(),
    onDrain: (callback) => {
      if (socket.writableLength === 0) callback();
      else socket.once('drain', callback);
    },
    close: () => {
      // What was written goes out first; a client that does not read it loses it after a second.
      socket.end();
      setTimeout(() => socket.destroy(), 1000).unref();
    },
  };
}

function serve(socket: Socket | TLSSocket, kind: 'tcp' | 'ssl', host: SessionHost): void {
  socket.setNoDelay(true);
  socket.on('error', () => undefined);
  const session = host.open(socketTransport(socket, kind));
  if (!session) return;
  const framer = new LineFramer(host.limits.maxRequestBytes, (line) => session.receive(line), () => session.close());
  socket.on('data', (chunk: Buffer) => framer.push(chunk));
  socket.on('close', () => {
    framer.stop();
    session.close();
  });
}

/** A plain TCP listener (not yet listening). */
export function tcpServer(host: SessionHost): Server {
  return createNetServer((socket) => serve(socket, 'tcp', host));
}

/** A TLS listener presenting `credentials`; setSecureContext swaps them for new connections (SIGHUP). */
export function tlsServer(host: SessionHost, credentials: TlsCredentials): Server & { setSecureContext(options: TlsCredentials): void } {
  const server = createTlsServer({ cert: credentials.cert, key: credentials.key }, (socket) => serve(socket, 'ssl', host));
  // A handshake that fails (a plain-text client, a scanner) is the client's problem, not the server's.
  server.on('tlsClientError', () => undefined);
  return server;
}
