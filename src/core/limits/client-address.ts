/**
 * Who a client is, for every per-address limit (v2 rate and concurrency, web pages, sign-in, realtime connections):
 * the TCP peer's address, or behind a trusted reverse proxy the address it names in X-Forwarded-For. One trust
 * function, given to Fastify as its `trustProxy` (so `request.ip` is computed by exactly this rule) and used by the
 * realtime upgrade, which sees the raw request before any Fastify object exists. `[http] trust_proxy`,
 * docs/operations.md "Security".
 */
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/**
 * `false`: never read X-Forwarded-For (the default: a client cannot choose its own address). `true`: every hop is
 * trusted, so the left-most address counts (only safe when nothing but the proxy can reach the port, and even then
 * a client can prepend addresses of its own). A number: trust that many hops from this server. A list: the proxies'
 * addresses or CIDR ranges (and `loopback`, `linklocal`, `uniquelocal`), the form to prefer.
 */
export type TrustProxy = boolean | number | readonly string[];

/** proxy-addr's trust test: may the address at `hop` (0 = the TCP peer) tell us who is behind it? */
export type TrustFunction = (address: string, hop: number) => boolean;

/**
 * The setting as a trust function, null when nothing is trusted. A hop count keeps its classic meaning (Express,
 * proxy-addr): Fastify 5.12 turned a bare number into "trust nothing", which would make the setting a silent no-op.
 * Throws a TypeError naming a list entry that is not an address or range (the config loader words it).
 */
export function compileTrust(setting: TrustProxy): TrustFunction | null {
  if (setting === false || setting === 0) return null;
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  if (setting.length === 0) return null;
  return proxyAddr.compile([...setting]);
}

/** The client's address as the limits key it: Fastify's `request.ip` rule, for a raw request. */
export function clientAddress(request: IncomingMessage, trust: TrustFunction | null): string {
  if (!trust) return request.socket.remoteAddress ?? '';
  const chain = proxyAddr.all(request, trust);
  return chain[chain.length - 1] ?? '';
}
