import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomInt } from 'node:crypto';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { parseUrlOrNull, type EventBus, type Logger, type NetworkId } from '../core/index.js';
import { clientAddress, compileTrust, type TrustProxy } from '../core/limits/client-address.js';
import type { ConcurrencyLimiter, Release } from '../core/limits/concurrency-limiter.js';
import type { NetworkParams } from '../chains/addressing.js';
import { ChannelRegistry } from './channels/channel-registry.js';
import { handleClientMessage, type ClientMessageContext } from './connections/client-messages.js';
import { Connection, type ConnectionCounters } from './connections/connection.js';
import { ConnectionsPerAddress } from './connections/connections-per-address.js';
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
  /** Whose X-Forwarded-For names the client for the per-address cap (`[http] trust_proxy`); default false. */
  readonly trustProxy?: TrustProxy;
  /**
   * Counts the websockets per client address instead of this process (the HTTP workers of `[http] processes` share
   * one count, held by the serving process): a slot per open websocket, taken before the upgrade.
   */
  readonly connectionSlots?: ConcurrencyLimiter;
}

export interface RealtimeStats {
  readonly connections: number;
  readonly channels: number;
  readonly subscriptions: number;
  /** Subscriptions per channel family: address, blockchain, ticker. */
  readonly subscriptionsByKind: Readonly<Record<'address' | 'blockchain' | 'ticker' | 'wallet', number>>;
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
  // The addon is optional (a compiler at install, and npm's install-script policy allowing it): one line says which runs.
  deps.logger.info('realtime: fan-out sender', nativeSendAll
    ? { sender: 'native', threads: sendThreads }
    : { sender: 'javascript', threads: sendThreads, note: 'native/fanout is not built (optional; `npm run build:native` in the package directory builds it)' });
  const counters: ConnectionCounters & FanOutCounters = { messagesSent: 0, messagesDropped: 0, slowConsumersClosed: 0, idleClosed: 0, eventsDelivered: 0 };
  let rejected = 0;
  const connections = new Set<Connection>();
  const perAddress = new ConnectionsPerAddress(limits.maxConnectionsPerIp);
  const trust = compileTrust(deps.trustProxy ?? false);
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

  /** `slot`: the shared count's slot for this address (null: the address is at its limit); undefined: counted here. */
  function open(ws: WebSocket, socket: Duplex, url: URL, address: string, slot?: Release | null): void {
    const verdict = checkHandshake(url, deps.appKey);
    if (!verdict.ok || connections.size >= limits.maxConnections) {
      slot?.();
      return verdict.ok ? reject(ws, PusherCode.OverCapacity, 'Over capacity: connection limit reached') : reject(ws, verdict.code, verdict.message);
    }
    if (slot === null || (slot === undefined && !perAddress.tryAdd(address))) return reject(ws, PusherCode.OverCapacity, 'Over capacity: too many connections from your address');
    const conn = new Connection(ws, socket, `${idPrefix}.${++nextId}`, limits, counters, Date.now());
    connections.add(conn);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      // ws calls this from the socket's data handler: anything thrown here would end the process.
      try {
        handleClientMessage(context, conn, toBuffer(data), isBinary, Date.now());
      } catch (err) {
        deps.logger.error('realtime: message handler failed', { error: err instanceof Error ? err.message : String(err) });
        conn.sendError(PusherCode.InvalidMessage, 'The message could not be handled');
      }
    });
    ws.on('close', () => {
      if (slot) slot();
      else perAddress.remove(address);
      connections.delete(conn);
      for (const channel of conn.channels) registry.unsubscribe(conn, channel);
      conn.channels.clear();
    });
    // Protocol errors (e.g. 1009 too large) close the socket themselves; the listener keeps them from throwing.
    ws.on('error', () => undefined);
    conn.send(connectionEstablished(conn.socketId, limits.activityTimeoutSec));
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Node hands the socket over without its error listener: a client's reset would otherwise be thrown.
    socket.on('error', ignoreError);
    // The request target is the client's text: `http://[::1/app/…` is no URL, `%E0%A4%A` no escape.
    const url = parseUrlOrNull(req.url ?? '/', 'http://realtime.invalid');
    if (!url) return refuseUpgrade(socket, '400 Bad Request');
    if (!url.pathname.startsWith(APP_PATH_PREFIX)) {
      // Another upgrade handler may own this path; with none, answer rather than leave the socket hanging.
      if (server.listenerCount('upgrade') === 1) refuseUpgrade(socket, '404 Not Found');
      return;
    }
    const address = clientAddress(req, trust);
    const slots = limits.maxConnectionsPerIp > 0 ? deps.connectionSlots : undefined;
    if (!slots) return upgrade(req, socket, head, url, address);
    slots.acquire(address, limits.maxConnectionsPerIp).then(
      (slot) => {
        // The client may have gone while the count was asked.
        if (socket.destroyed) return slot?.();
        upgrade(req, socket, head, url, address, slot);
      },
      (err: Error) => {
        deps.logger.error('realtime: connection count unavailable', { error: err.message });
        socket.destroy();
      },
    );
  };

  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, address: string, slot?: Release | null): void {
    // A handshake ws refuses never reaches open(): the slot goes back with the socket (a release is idempotent).
    if (slot) socket.once('close', slot);
    try {
      wss.handleUpgrade(req, socket, head, (ws) => open(ws, socket, url, address, slot));
    } catch (err) {
      // The last line for a fault of ours: this connection ends, the process and every other client go on.
      slot?.();
      deps.logger.error('realtime: upgrade failed', { error: err instanceof Error ? err.message : String(err) });
      socket.destroy();
    }
  }
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

/** One listener for every socket whose errors end it anyway (no closure per connection). */
function ignoreError(): void {}

function refuseUpgrade(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}
