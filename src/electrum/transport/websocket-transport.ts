/**
 * WebSocket connections of the Electrum server (what browser wallets use): one JSON-RPC message per text frame, no
 * newlines (protocol-basics.rst), on a listener of its own: `ws` over plain HTTP, `wss` over HTTPS with the [http]
 * certificate. A frame past the request bound closes the connection (1009, `ws`'s maxPayload).
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { WebSocketServer, type WebSocket } from 'ws';
import type { TlsCredentials } from './tls-credentials.js';
import type { Transport } from '../sessions/electrum-session.js';
import type { SessionHost } from '../sessions/session-host.js';

function wsTransport(ws: WebSocket, kind: 'ws' | 'wss', remote: string, localAddress: string, localPort: number): Transport {
  return {
    kind,
    remoteAddress: remote,
    localAddress,
    localPort,
    send: (message) => {
      if (ws.readyState === ws.OPEN) ws.send(message);
    },
    bufferedBytes: () => ws.bufferedAmount,
    pauseReading: () => ws.pause(),
    resumeReading: () => ws.resume(),
    onDrain: (callback) => {
      // `ws` has no drain event: looked at until its buffer is written.
      const check = setInterval(() => {
        if (ws.bufferedAmount === 0 || ws.readyState !== ws.OPEN) {
          clearInterval(check);
          callback();
        }
      }, 50);
      check.unref();
    },
    close: () => ws.close(1000),
  };
}

/** An HTTP(S) server whose upgrades are Electrum sessions (not yet listening). */
export function websocketServer(host: SessionHost, credentials: TlsCredentials | null): HttpServer | HttpsServer {
  const server = credentials ? createHttpsServer({ cert: credentials.cert, key: credentials.key }) : createHttpServer();
  // Plain HTTP requests get nothing but a hint: this port speaks WebSocket.
  server.on('request', (_req, res) => res.writeHead(426, { 'content-type': 'text/plain' }).end('Electrum over WebSocket: upgrade required\n'));
  const wss = new WebSocketServer({ server, maxPayload: host.limits.maxRequestBytes, perMessageDeflate: false });
  wss.on('connection', (ws, req) => {
    ws.on('error', () => undefined);
    const socket = req.socket;
    const session = host.open(wsTransport(ws, credentials ? 'wss' : 'ws', socket.remoteAddress ?? 'unknown', socket.localAddress ?? '127.0.0.1', socket.localPort ?? 0));
    if (!session) return;
    ws.on('message', (data) => session.receive(data.toString()));
    ws.on('close', () => session.close());
  });
  server.on('close', () => wss.close());
  return server;
}
