import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomInt } from 'node:crypto';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { EventBus, Logger, NetworkId } from '../core/index.js';
import type { NetworkParams } from '../chains/addressing.js';
import { ChannelRegistry } from './channels/channel-registry.js';
import { handleClientMessage, type ClientMessageContext } from './connections/client-messages.js';
import { Connection, type ConnectionCounters } from './connections/connection.js';
import { PusherCode } from './protocol/error-codes.js';
import { EventRouter, type FanOutCounters } from './channels/event-router.js';
import { APP_PATH_PREFIX, checkHandshake } from './protocol/handshake.js';
import { connectionEstablished, errorFrame } from './protocol/protocol-messages.js';
import { nativeSendAll, sendAll } from './sending/send-all.js';
import { SendBatch } from './sending/send-batch.js';
import { resolveLimits, type RealtimeLimits } from './connections/realtime-limits.js';

export interface RealtimeDeps {
  readonly appKey: string;
  readonly bus: EventBus;
  readonly networks: ReadonlyMap<NetworkId, NetworkParams>;
  readonly logger: Logger;
  readonly limits?: Partial<RealtimeLimits>;
  /** Threads that send one event to a channel's sockets (native sender only; 1 keeps it on the JS thread). */
  readonly sendThreads?: number;
}

export interface RealtimeStats {
  readonly connections: number;
  readonly channels: number;
  readonly subscriptions: number;
  /** Subscriptions per channel family: address, blockchain, ticker. */
  readonly subscriptionsByKind: Readonly<Record<'address' | 'blockchain' | 'ticker', number>>;
  readonly connectionsRejected: number;
  readonly messagesSent: number;
  readonly messagesDropped: number;
  readonly eventsDelivered: number;
  readonly slowConsumersClosed: number;
  readonly idleClosed: number;
}

export interface RealtimeHandle {
  close(): Promise<void>;
  stats(): RealtimeStats;
}

/** How long shutdown waits for clients to complete the closing handshake before dropping them. */
const SHUTDOWN_GRACE_MS = 2_000;

/**
 * Serves the Pusher protocol on `/app/{key}` of an existing HTTP server (the API's port), fed by
 * domain events from the bus: never by reading the store per subscriber.
 */
export function attachRealtime(server: Server, deps: RealtimeDeps): RealtimeHandle {
  const limits = resolveLimits(deps.limits);
  const sendThreads = nativeSendAll ? (deps.sendThreads ?? 1) : 1;
  const registry = new ChannelRegistry(new SendBatch(sendAll, sendThreads));
  deps.logger.info('realtime: fan-out sender', { sender: nativeSendAll ? 'native' : 'javascript (native/fanout not built)', threads: sendThreads });
  const counters: ConnectionCounters & FanOutCounters = { messagesSent: 0, messagesDropped: 0, slowConsumersClosed: 0, idleClosed: 0, eventsDelivered: 0 };
  let rejected = 0;
  const connections = new Set<Connection>();
  const context: ClientMessageContext = { registry, networks: deps.networks, limits };
  const router = new EventRouter(registry, deps.networks, counters);
  // Socket ids are "<digits>.<digits>" like Pusher's; the random prefix keeps them unique across processes.
  const idPrefix = randomInt(1, 2 ** 31);
  let nextId = 0;

  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    perMessageDeflate: false,
    // Far beyond anything pusher-js sends: ws itself closes with 1009 before buffering more.
    maxPayload: limits.maxMessageBytes * 4,
  });

  const unsubscribeBus = deps.bus.subscribe((event) => {
    try {
      router.route(event);
    } catch (err) {
      deps.logger.error('realtime: event not delivered', { kind: event.kind, error: err instanceof Error ? err.message : String(err) });
    }
  });

  function reject(ws: WebSocket, code: PusherCode, message: string): void {
    rejected++;
    ws.on('error', () => undefined);
    ws.send(errorFrame(code, message));
    ws.close(code, message);
  }

  function open(ws: WebSocket, socket: Duplex, url: URL): void {
    const verdict = checkHandshake(url, deps.appKey);
    if (!verdict.ok) return reject(ws, verdict.code, verdict.message);
    if (connections.size >= limits.maxConnections) return reject(ws, PusherCode.OverCapacity, 'Over capacity: connection limit reached');
    const conn = new Connection(ws, socket, `${idPrefix}.${++nextId}`, limits, counters, Date.now());
    connections.add(conn);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      handleClientMessage(context, conn, toBuffer(data), isBinary, Date.now());
    });
    ws.on('close', () => {
      connections.delete(conn);
      for (const channel of conn.channels) registry.unsubscribe(conn, channel);
      conn.channels.clear();
    });
    // Protocol errors (e.g. 1009 too large) close the socket themselves; the listener keeps them from throwing.
    ws.on('error', () => undefined);
    conn.send(connectionEstablished(conn.socketId, limits.activityTimeoutSec));
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = new URL(req.url ?? '/', 'http://realtime.invalid');
    if (!url.pathname.startsWith(APP_PATH_PREFIX)) {
      // Another upgrade handler may own this path; with none, answer rather than leave the socket hanging.
      if (server.listenerCount('upgrade') === 1) socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => open(ws, socket, url));
  };
  server.on('upgrade', onUpgrade);

  // One sweep for every connection's liveness instead of a timer per socket.
  const sweepMs = Math.max(50, Math.min(1000, Math.floor(Math.min(limits.activityTimeoutSec * 1000, limits.pongTimeoutMs) / 4)));
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const conn of connections) conn.checkLiveness(now);
  }, sweepMs);
  sweeper.unref();

  let closed: Promise<void> | null = null;
  async function shutdown(): Promise<void> {
    clearInterval(sweeper);
    unsubscribeBus();
    server.off('upgrade', onUpgrade);
    const open = [...connections];
    for (const conn of open) conn.close(PusherCode.ServerRestarting, 'Server shutting down: reconnect');
    const deadline = Date.now() + SHUTDOWN_GRACE_MS;
    while (connections.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const conn of connections) conn.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  }

  return {
    close: () => (closed ??= shutdown()),
    stats: () => ({
      connections: connections.size,
      channels: registry.channelCount,
      subscriptions: registry.subscriptions,
      subscriptionsByKind: registry.subscriptionsByKind(),
      connectionsRejected: rejected,
      messagesSent: counters.messagesSent,
      messagesDropped: counters.messagesDropped,
      eventsDelivered: counters.eventsDelivered,
      slowConsumersClosed: counters.slowConsumersClosed,
      idleClosed: counters.idleClosed,
    }),
  };
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}
