/** `[wallets]` and the DNS keys of `[webhooks]`: bounds of what a client can make the server derive or resolve. */
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { ConfigError } from '../core/index.js';
import type { OutpointConfig } from './config-types.js';
import type { KeyReader } from './config-values.js';

export function buildWallets(wallets: KeyReader): OutpointConfig['wallets'] {
  return {
    derivePerMinute: wallets.int('derive_per_minute'),
    // As `[realtime] send_threads`: half the cores, so the event loop, the indexer and the node keep the other half.
    deriveThreads: wallets.int('derive_threads', Math.max(1, Math.floor(availableParallelism() / 2))),
    deriveQueue: wallets.int('derive_queue'),
    cacheBytes: wallets.int('cache_mb') * 1024 * 1024,
  };
}

/** `[webhooks] dns_servers`: each an IP address, optionally with a port (`[v6]:port` for IPv6), as c-ares takes them. */
export function dnsServers(list: readonly string[]): string[] {
  for (const server of list) {
    const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server);
    const v4 = /^([\d.]+)(?::(\d{1,5}))?$/.exec(server);
    const host = bracketed?.[1] ?? v4?.[1] ?? server;
    const port = bracketed?.[2] ?? v4?.[2];
    if (isIP(host) === 0 || (port !== undefined && (Number(port) < 1 || Number(port) > 65_535))) {
      throw new ConfigError(`webhooks.dns_servers: "${server.slice(0, 60)}" is not an IP address with an optional port (1.2.3.4, 1.2.3.4:5353, [::1]:53)`);
    }
  }
  return [...list];
}
