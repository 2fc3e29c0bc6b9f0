/**
 * The Electrum server built from the configuration, the store and each network's node: the same in the process that
 * serves HTTP (one process) and in each Electrum worker process (electrum-worker.ts). Limits that count across a
 * network's connections are shared out between the processes, since each counts its own.
 */
import { readFileSync } from 'node:fs';
import type { ElectrumConfig, OutpointConfig } from '../../../config/index.js';
import type { ChainStore, Logger, Metrics, NetworkId, RawTxSource } from '../../../core/index.js';
import { getNetworkParams } from '../../../chains/networks.js';
import { startElectrum, type ElectrumHandle, type ElectrumOptions } from '../../../electrum/attach-electrum.js';
import type { ElectrumLimits } from '../../../electrum/sessions/electrum-limits.js';
import { RpcBroadcaster } from '../../../node/rpc-broadcaster.js';
import { RpcElectrumSource } from '../../../node/rpc-electrum-source.js';
import type { RpcClient } from '../../../node/rpc/rpc-client.js';
import { createElectrumServices } from '../../../services/electrum/electrum-services.js';
import { VERSION } from '../version.js';

export interface ElectrumNode {
  readonly rpc: RpcClient;
  readonly rawTxs: RawTxSource;
}

/**
 * `processes` serve one network between them: a per-address or per-network count is each one's share. `networks`: how
 * many networks this process serves (they share its `answer_cache_mb` evenly).
 */
export function electrumLimits(e: ElectrumConfig, processes: number, networks = 1): ElectrumLimits {
  const share = (n: number): number => Math.max(1, Math.ceil(n / processes));
  return {
    maxConnectionsPerIp: e.maxConnectionsPerIp === 0 ? 0 : share(e.maxConnectionsPerIp), maxConnections: share(e.maxConnections),
    maxSubscriptionsPerConnection: e.maxSubscriptionsPerConnection, maxSubscriptions: share(e.maxSubscriptions), maxRequestBytes: e.maxRequestBytes,
    requestsPerSecond: e.requestsPerSecond, idleTimeoutMs: e.idleTimeoutS * 1000, maxSendBufferBytes: 64 * 2 ** 20,
    answerCacheBytes: Math.floor(e.answerCacheBytes / Math.max(1, networks)),
  };
}

export function readTlsPair(config: OutpointConfig): { cert: Buffer; key: Buffer } | null {
  const files = config.http.tls;
  return files ? { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) } : null;
}

/** Networks with at least one Electrum listener. */
export function electrumNetworks(config: OutpointConfig): OutpointConfig['networks'] {
  return config.networks.filter((n) => Object.keys(n.electrum).length > 0);
}

export function buildElectrumServer(options: {
  readonly config: OutpointConfig;
  readonly store: ChainStore;
  readonly nodes: ReadonlyMap<NetworkId, ElectrumNode>;
  readonly changes: ElectrumOptions['changes'];
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly processes: number;
}): Promise<ElectrumHandle> {
  const { config, store, nodes } = options;
  const serving = electrumNetworks(config);
  const services = createElectrumServices({
    networks: new Map(serving.map((n) => {
      const network = store.network(n.id);
      const node = nodes.get(n.id)!;
      return [n.id, {
        params: getNetworkParams(n.id, n.chain), reader: network, scriptHashes: network.scriptHashes, rawTxs: node.rawTxs, node: new RpcElectrumSource(node.rpc),
      }] as const;
    })),
    broadcaster: new RpcBroadcaster(new Map(serving.map((n) => [n.id, nodes.get(n.id)!.rpc] as const))),
    maxHistory: config.electrum.maxHistory,
    logger: options.logger,
  });
  return startElectrum({
    networks: new Map(serving.map((n) => [n.id, { services: services.get(n.id)!, listen: n.electrum }])),
    serverVersion: `Outpoint ${VERSION}`,
    banner: config.electrum.banner,
    donationAddress: config.electrum.donationAddress,
    limits: electrumLimits(config.electrum, options.processes, serving.length),
    tls: readTlsPair(config),
    changes: options.changes,
    metrics: options.metrics,
    logger: options.logger,
  });
}
