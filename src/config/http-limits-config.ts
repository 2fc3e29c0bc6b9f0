/**
 * `[http]` keys that bound what a client can hold or claim: whose X-Forwarded-For is believed (trust_proxy), how long
 * a request may take to arrive, how long an idle connection stays, how many connections are open at once
 * (docs/operations.md, "Security").
 */
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { ConfigError } from '../core/index.js';
import { compileTrust, type TrustProxy } from '../core/limits/client-address.js';
import type { HttpLimitsConfig } from './config-types.js';
import type { KeyReader, Raw } from './config-values.js';

/** File descriptors kept for everything that is not a client: the store, node RPC and ZMQ, P2P peers, Redis, logs. */
const RESERVED_FDS = 512;
/** Memory budgeted per connection (an idle one costs a few KiB; a reading one holds up to 64 KiB of buffers). */
const BYTES_PER_CONNECTION = 128 * 1024;
/** Hops a count may name: more proxies than this in front of one service is a configuration mistake. */
const MAX_HOPS = 64;

/** `table` is the raw `[http]` table: trust_proxy takes forms (a bool, a count, a list) no single reader does. */
export function buildHttpLimits(http: KeyReader, table: Raw): HttpLimitsConfig {
  return {
    trustProxy: trustProxy(table['trust_proxy']),
    requestTimeoutS: http.int('request_timeout_s'),
    keepAliveTimeoutS: http.int('keep_alive_timeout_s'),
    maxConnections: http.int('max_connections', defaultMaxConnections()),
    hstsMaxAgeS: http.int('hsts_max_age_s'),
  };
}

/**
 * As many connections as the process can open files for (beyond that accept() fails with EMFILE, and so would the
 * store's and the node's own sockets), and no more than the memory holds; at least 64.
 */
export function defaultMaxConnections(): number {
  const byMemory = Math.floor(totalmem() / BYTES_PER_CONNECTION);
  const files = openFileLimit();
  const byFiles = files === null ? byMemory : files - RESERVED_FDS;
  return Math.max(64, Math.min(byMemory, byFiles));
}

/** The soft RLIMIT_NOFILE (Linux /proc; null where unknown or unlimited). */
function openFileLimit(): number | null {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line && line[1] !== 'unlimited' ? Number(line[1]) : null;
  } catch {
    return null;
  }
}

/** TOML: true/false, an integer, a list of strings. Environment: the same as text ("true", "2", "10.0.0.1, ::1"). */
function trustProxy(value: unknown): TrustProxy {
  const path = 'http.trust_proxy';
  if (value === undefined || typeof value === 'boolean') return value ?? false;
  let setting: TrustProxy;
  if (typeof value === 'number' || typeof value === 'bigint') setting = hops(Number(value));
  else if (typeof value === 'string') setting = fromText(value.trim());
  else if (Array.isArray(value) && value.every((v): v is string => typeof v === 'string')) setting = value.map((v) => v.trim());
  else throw new ConfigError(`${path} must be true, false, a hop count or a list of proxy addresses, got ${JSON.stringify(value)}`);
  if (Array.isArray(setting)) {
    try {
      compileTrust(setting);
    } catch (err) {
      throw new ConfigError(`${path}: ${(err as Error).message} (use IP addresses, CIDR ranges such as 10.0.0.0/8, loopback, linklocal or uniquelocal)`);
    }
  }
  return setting;
}

/** Digits are a hop count as in TOML (so "1" is one hop, not `true`, which would trust a client's own entries). */
function fromText(text: string): TrustProxy {
  if (/^true$/i.test(text)) return true;
  if (/^(false|)$/i.test(text)) return false;
  if (/^\d+$/.test(text)) return hops(Number(text));
  return text.split(',').map((v) => v.trim()).filter((v) => v !== '');
}

function hops(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0 || n > MAX_HOPS) throw new ConfigError(`http.trust_proxy: a hop count is between 0 and ${MAX_HOPS}, got ${n}`);
  return n;
}
