/**
 * The Electrum server of `outpoint serve` (docs/electrum.md): its services over the store and each network's node,
 * its listeners where `[networks.X] electrum_*` say (none: not started), fed by the process's event bus; and, in the
 * process that runs the indexers, the background build of an upgraded store's scripthash index.
 */
import { readFileSync } from 'node:fs';
import type { OutpointConfig } from '../../config/index.js';
import type { ChainStore, EventBus, Logger, Metrics } from '../../core/index.js';
import { getNetworkParams } from '../../chains/networks.js';
import { startElectrum, type ElectrumHandle, type ElectrumListener } from '../../electrum/attach-electrum.js';
import { RpcBroadcaster } from '../../node/rpc-broadcaster.js';
import { RpcElectrumSource } from '../../node/rpc-electrum-source.js';
import { createElectrumServices } from '../../services/electrum/electrum-services.js';
import { ScriptHashIndexBuild } from '../../services/electrum/script-hash-index-build.js';
import type { NetworkRuntime } from './network-runtime.js';
import { VERSION } from './version.js';

export class ElectrumRuntime {
  private handle: ElectrumHandle | null = null;
  private build: ScriptHashIndexBuild | null = null;

  constructor(
    private readonly config: OutpointConfig,
    private readonly store: ChainStore,
    private readonly networks: readonly NetworkRuntime[],
    private readonly logger: Logger,
  ) {}

  /** What /ready lists (empty before start and without listeners). */
  get listeners(): readonly ElectrumListener[] {
    return this.handle?.listeners ?? [];
  }

  /** The writer process: builds what an upgraded store's scripthash index lacks, in the background. */
  startIndexBuild(): void {
    this.build ??= new ScriptHashIndexBuild(this.networks.map((n) => this.store.network(n.config.id)), this.logger);
    this.build.start();
  }

  async start(bus: EventBus, metrics: Metrics): Promise<void> {
    const serving = this.networks.filter((n) => Object.keys(n.config.electrum).length > 0);
    if (serving.length === 0) return;
    const e = this.config.electrum;
    const services = createElectrumServices({
      networks: new Map(serving.map((n) => {
        const store = this.store.network(n.config.id);
        return [n.config.id, {
          params: getNetworkParams(n.config.id, n.config.chain), reader: store, scriptHashes: store.scriptHashes, rawTxs: n.rawTxs,
          node: new RpcElectrumSource(n.node.rpc),
        }] as const;
      })),
      broadcaster: new RpcBroadcaster(new Map(serving.map((n) => [n.config.id, n.node.rpc] as const))),
      maxHistory: e.maxHistory,
      logger: this.logger,
    });
    this.handle = await startElectrum({
      networks: new Map(serving.map((n) => [n.config.id, { services: services.get(n.config.id)!, listen: n.config.electrum }])),
      serverVersion: `Outpoint ${VERSION}`,
      banner: e.banner,
      donationAddress: e.donationAddress,
      limits: {
        maxConnectionsPerIp: e.maxConnectionsPerIp, maxConnections: e.maxConnections, maxSubscriptionsPerConnection: e.maxSubscriptionsPerConnection,
        maxSubscriptions: e.maxSubscriptions, maxRequestBytes: e.maxRequestBytes, requestsPerSecond: e.requestsPerSecond,
        idleTimeoutMs: e.idleTimeoutS * 1000, maxSendBufferBytes: 64 * 2 ** 20,
      },
      tls: this.readTls(),
      bus,
      metrics,
      logger: this.logger,
    });
  }

  /** SIGHUP: the [http] certificate again for new TLS and wss connections; false when there is nothing to reload. */
  reloadTls(): boolean {
    const tls = this.readTls();
    if (!this.handle || !tls) return false;
    this.handle.reloadTls(tls);
    return true;
  }

  async stop(): Promise<void> {
    await this.handle?.close();
    await this.build?.stop();
  }

  private readTls(): { cert: Buffer; key: Buffer } | null {
    const files = this.config.http.tls;
    return files ? { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) } : null;
  }
}
