/**
 * The Electrum server of `outpoint serve` (docs/electrum.md): where `[networks.X] electrum_*` name listeners, in this
 * process (`[electrum] processes = 1`) or in worker processes (electrum-cluster.ts), fed by this process's event bus
 * either way; and, in the process that runs the indexers, the background build of an upgraded store's scripthash index.
 */
import type { OutpointConfig } from '../../config/index.js';
import type { ChainStore, EventBus, Logger, Metrics } from '../../core/index.js';
import type { ElectrumHandle, ElectrumListener } from '../../electrum/attach-electrum.js';
import { followElectrumChanges } from '../../electrum/subscriptions/electrum-changes.js';
import { ScriptHashIndexBuild } from '../../services/electrum/script-hash-index-build.js';
import { ElectrumCluster } from './electrum-cluster.js';
import { buildElectrumServer, electrumNetworks, readTlsPair } from './electrum-server.js';
import type { NetworkRuntime } from './network-runtime.js';

export class ElectrumRuntime {
  private handle: ElectrumHandle | null = null;
  private cluster: ElectrumCluster | null = null;
  private unfollow: (() => void) | null = null;
  private build: ScriptHashIndexBuild | null = null;

  constructor(
    private readonly config: OutpointConfig,
    private readonly store: ChainStore,
    private readonly networks: readonly NetworkRuntime[],
    private readonly logger: Logger,
  ) {}

  /** What /ready lists (empty before start and without listeners). */
  get listeners(): readonly ElectrumListener[] {
    return this.handle?.listeners ?? this.cluster?.listeners ?? [];
  }

  /** The writer process: builds what an upgraded store's scripthash index lacks, in the background. */
  startIndexBuild(): void {
    this.build ??= new ScriptHashIndexBuild(this.networks.map((n) => this.store.network(n.config.id)), this.logger);
    this.build.start();
  }

  async start(bus: EventBus, metrics: Metrics): Promise<void> {
    if (electrumNetworks(this.config).length === 0) return;
    if (this.config.electrum.processes > 1) {
      this.cluster = new ElectrumCluster(this.config, this.logger, metrics);
      await this.cluster.start();
      const cluster = this.cluster;
      this.unfollow = followElectrumChanges(bus, (change) => cluster.forward(change));
      return;
    }
    this.handle = await buildElectrumServer({
      config: this.config, store: this.store, metrics, logger: this.logger, processes: 1,
      nodes: new Map(this.networks.map((n) => [n.config.id, { rpc: n.node.rpc, rawTxs: n.rawTxs }] as const)),
      changes: (onChange) => followElectrumChanges(bus, onChange),
    });
  }

  /** SIGHUP: the [http] certificate again for new TLS and wss connections (throws, keeping the old one, when unusable). */
  reloadTls(): void {
    const tls = readTlsPair(this.config);
    if (tls) this.handle?.reloadTls(tls);
    this.cluster?.reloadTls();
  }

  async stop(): Promise<void> {
    this.unfollow?.();
    await this.handle?.close();
    await this.cluster?.stop();
    await this.build?.stop();
  }
}
