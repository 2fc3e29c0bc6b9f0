/**
 * What one slow, idle or numerous client can hold of the HTTP server (`[http] request_timeout_s`,
 * `keep_alive_timeout_s`, `max_connections`; docs/operations.md, "Security"). Node enforces each: a request not
 * received in time is answered 408 (Fastify's client-error handler) and its socket closed, an idle keep-alive
 * socket is closed, a connection over the cap is closed at accept, before it costs a parser or a byte of reading.
 */
import type { Server } from 'node:http';

export interface ServerLimits {
  /** The whole request, headers and body, must have arrived this long after it started. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  readonly keepAliveTimeoutMs: number;
  /** Connections open at once, websockets included (they stay the server's sockets); null: no cap. */
  readonly maxConnections: number | null;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = Object.freeze({ requestTimeoutMs: 30_000, keepAliveTimeoutMs: 65_000, maxConnections: null });

/** Headers are a few hundred bytes: a client still sending them after this long is trickling them on purpose. */
const HEADERS_TIMEOUT_MS = 10_000;
/**
 * How often Node checks its requests against the timeouts (its default is every 30 s, which would let a request
 * run up to twice its timeout); the check walks only the connections with a request under way.
 */
const CHECK_INTERVAL_MS = 1_000;

export function resolveServerLimits(overrides: Partial<ServerLimits> = {}): ServerLimits {
  return { ...DEFAULT_SERVER_LIMITS, ...overrides };
}

/** On the created server, before it listens (the checking interval starts at listen). */
export function applyServerLimits(server: Server, limits: ServerLimits): void {
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.headersTimeout = Math.min(limits.requestTimeoutMs, HEADERS_TIMEOUT_MS);
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(CHECK_INTERVAL_MS, limits.requestTimeoutMs);
  if (limits.maxConnections !== null) server.maxConnections = limits.maxConnections;
}
