/**
 * The Electrum server (docs/electrum.md): for each configured network, its listeners (TCP, TLS, WebSocket, secure
 * WebSocket; `[networks.X] electrum_tcp|electrum_tls|electrum_ws|electrum_wss`), one session host with its
 * subscriptions, fed by the domain events of the bus. Main builds the services and calls `startElectrum`.
 */
import type { Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { NetworkId } from '../core/domain/network.js';
import type { Logger } from '../core/infrastructure/logger.js';
import type { Metrics } from '../core/infrastructure/metrics.js';
import type { ElectrumNetworkServices } from '../services/electrum/electrum-services.js';
import { electrumMetrics } from './electrum-metrics.js';
import { METHODS } from './methods/method-table.js';
import type { ServerInfo } from './methods/method-spec.js';
import type { ElectrumLimits } from './sessions/electrum-limits.js';
import { SessionHost } from './sessions/session-host.js';
import type { ElectrumChange } from './subscriptions/electrum-changes.js';
import { tcpServer, tlsServer } from './transport/socket-transport.js';
import type { TlsCredentials } from './transport/tls-credentials.js';
import { websocketServer } from './transport/websocket-transport.js';

export type ElectrumTransport = 'tcp' | 'ssl' | 'ws' | 'wss';
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export interface ElectrumNetworkOptions {
  readonly services: ElectrumNetworkServices;
  readonly listen: Readonly<Partial<Record<ElectrumTransport, ListenAddress>>>;
}

export interface ElectrumOptions {
  readonly networks: ReadonlyMap<NetworkId, ElectrumNetworkOptions>;
  readonly serverVersion: string;
  readonly banner: string;
  readonly donationAddress: string;
  readonly limits: ElectrumLimits;
  /** The [http] certificate: needed by `ssl` and `wss` listeners. */
  readonly tls: TlsCredentials | null;
  /**
   * Where the subscriptions learn what changed: the event bus through electrum-changes.ts in the serving process, the
   * changes the serving process forwards in an Electrum worker process. Returns the unsubscribe.
   */
  readonly changes: (onChange: (change: ElectrumChange) => void) => () => void;
  readonly metrics: Metrics;
  readonly logger: Logger;
  /** Largest raw transaction accepted for broadcast, in bytes (Fulcrum's 4 MB: a block's weight at most). */
  readonly maxTxBytes?: number;
}

export interface ElectrumListener {
  readonly network: NetworkId;
  readonly transport: ElectrumTransport;
  /** Where it listens, as bound (`host:port`). */
  readonly address: string;
}

export interface ElectrumHandle {
  readonly listeners: readonly ElectrumListener[];
  readonly hosts: ReadonlyMap<NetworkId, SessionHost>;
  /** A renewed [http] certificate for new TLS and wss connections (SIGHUP); throws, keeping the old one, when unusable. */
  reloadTls(credentials: TlsCredentials): void;
  close(): Promise<void>;
}

function listen(server: Server, at: ListenAddress): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

const PORT_KEYS = { tcp: 'tcp_port', ssl: 'ssl_port', ws: 'ws_port', wss: 'wss_port' } as const;

export async function startElectrum(options: ElectrumOptions): Promise<ElectrumHandle> {
  const measured = electrumMetrics(options.metrics);
  const hosts = new Map<NetworkId, SessionHost>();
  const servers: { server: Server; transport: ElectrumTransport }[] = [];
  const listeners: ElectrumListener[] = [];
  const close = async (): Promise<void> => {
    unfollow();
    for (const host of hosts.values()) host.closeAll();
    await Promise.all(servers.map(({ server }) => new Promise((resolve) => server.close(resolve))));
  };
  const unfollow = options.changes((change) => hosts.get(change.network)?.onChange(change));
  try {
    for (const [network, { services, listen: addresses }] of options.networks) {
      const ports: Partial<Record<(typeof PORT_KEYS)[ElectrumTransport], number>> = {};
      const info: ServerInfo = {
        serverVersion: options.serverVersion, banner: options.banner, donationAddress: options.donationAddress, ports,
        maxHeaders: 2016, maxTxBytes: options.maxTxBytes ?? 4_000_000,
      };
      const host = new SessionHost(services, info, options.limits, METHODS, measured.statsFor(network), options.logger);
      hosts.set(network, host);
      measured.watch(network, host);
      for (const transport of ['tcp', 'ssl', 'ws', 'wss'] as const) {
        const at = addresses[transport];
        if (!at) continue;
        const secure = transport === 'ssl' || transport === 'wss';
        if (secure && !options.tls) throw new Error(`electrum_${transport === 'ssl' ? 'tls' : 'wss'} of ${network} needs [http] tls_cert_file and tls_key_file`);
        const server = transport === 'tcp' ? tcpServer(host) : transport === 'ssl' ? tlsServer(host, options.tls!) : websocketServer(host, transport === 'wss' ? options.tls : null);
        servers.push({ server, transport });
        const bound = await listen(server, at);
        ports[PORT_KEYS[transport]] = bound.port;
        listeners.push({ network, transport, address: `${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}` });
      }
    }
  } catch (error) {
    await close();
    throw error;
  }
  for (const l of listeners) options.logger.info('electrum listening', { network: l.network, transport: l.transport, address: l.address });
  return {
    listeners,
    hosts,
    reloadTls(credentials) {
      for (const { server, transport } of servers) {
        if (transport === 'ssl' || transport === 'wss') (server as unknown as { setSecureContext(c: TlsCredentials): void }).setSecureContext(credentials);
      }
    },
    close,
  };
}
