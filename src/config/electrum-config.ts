/** `[electrum]` and each network's Electrum listeners (docs/electrum.md). */
import { availableParallelism } from 'node:os';
import { ConfigError } from '../core/index.js';
import type { ElectrumConfig, ElectrumListenConfig } from './config-types.js';
import type { KeyReader } from './config-values.js';

export function buildElectrum(electrum: KeyReader): ElectrumConfig {
  return {
    banner: electrum.str('banner'),
    donationAddress: electrum.str('donation_address'),
    maxConnectionsPerIp: electrum.int('max_connections_per_ip'),
    maxConnections: electrum.int('max_connections'),
    maxSubscriptionsPerConnection: electrum.int('max_subscriptions_per_connection'),
    maxSubscriptions: electrum.int('max_subscriptions'),
    maxRequestBytes: electrum.int('max_request_bytes'),
    requestsPerSecond: electrum.int('requests_per_second'),
    maxHistory: electrum.int('max_history'),
    idleTimeoutS: electrum.int('idle_timeout_s'),
    answerCacheBytes: electrum.int('answer_cache_mb') * 1024 * 1024,
    // Every core: measured to pay on 2 (docs/benchmarks.md, "Electrum against Fulcrum"); past 8 the node and the store bound it.
    processes: electrum.int('processes', Math.min(8, availableParallelism())),
  };
}

/** HOST:PORT or [v6]:PORT; port 0 takes any free one (tests). */
const LISTEN = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

export function buildElectrumListeners(keys: KeyReader, path: string): ElectrumListenConfig {
  const out: Record<string, { host: string; port: number }> = {};
  for (const [transport, key] of [['tcp', 'electrum_tcp'], ['ssl', 'electrum_tls'], ['ws', 'electrum_ws'], ['wss', 'electrum_wss']] as const) {
    const value = keys.optionalStr(key);
    if (value === null) continue;
    const match = LISTEN.exec(value.trim());
    const port = match ? Number(match[2]) : -1;
    if (!match || port > 65535) throw new ConfigError(`${path}${key} must be HOST:PORT (e.g. "127.0.0.1:50001"), got "${value}"`);
    out[transport] = { host: match[1]!.replace(/^\[|\]$/g, ''), port };
  }
  return out;
}
