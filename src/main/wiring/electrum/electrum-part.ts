/**
 * The Electrum server of `outpoint serve` (docs/electrum.md) as a runtime part: where `[networks.X] electrum_*` name
 * listeners, in this process (`[electrum] processes = 1`) or in worker processes (electrum-cluster.ts), fed by this
 * process's event bus either way. Built from the drivers (drivers.ts), like the HTTP part; started after it (the
 * listeners answer headers and txs while a node is waited for, as HTTP does) and stopped before it.
 */
import type { ElectrumHandle, ElectrumListener } from '../../../electrum/attach-electrum.js';
import { followElectrumChanges } from '../../../electrum/subscriptions/electrum-changes.js';
import { ScriptHashIndexBuild } from '../../../services/electrum/script-hash-index-build.js';
import type { Drivers } from '../drivers.js';
import type { RuntimePart } from '../runtime-parts.js';
import { ElectrumCluster } from './electrum-cluster.js';
import { buildElectrumServer, electrumNetworks, readTlsPair } from './electrum-server.js';

export class ElectrumPart implements RuntimePart {
  readonly name = 'electrum';
  private handle: ElectrumHandle | null = null;
  private cluster: ElectrumCluster | null = null;
  private unfollow: (() => void) | null = null;

  constructor(private readonly drivers: Drivers) {}

  /** What /ready lists (empty before start and without listeners). */
  readonly listeners = (): readonly ElectrumListener[] => this.handle?.listeners ?? this.cluster?.listeners ?? [];

  async start(): Promise<void> {
    const { config, logger, store, networks, bus, observability } = this.drivers;
    if (electrumNetworks(config).length === 0) return;
    if (config.electrum.processes > 1) {
      this.cluster = new ElectrumCluster(config, logger, observability.metrics);
      await this.cluster.start();
      const cluster = this.cluster;
      this.unfollow = followElectrumChanges(bus, (change) => cluster.forward(change));
      return;
    }
    this.handle = await buildElectrumServer({
      config, store, metrics: observability.metrics, logger, processes: 1,
      nodes: new Map(networks.map((n) => [n.config.id, { rpc: n.node.rpc, rawTxs: n.rawTxs }] as const)),
      changes: (onChange) => followElectrumChanges(bus, onChange),
    });
  }

  /** SIGHUP: the [http] certificate again for new TLS and wss connections; an unusable one keeps the old and says why. */
  reloadTls(): void {
    if (!this.handle && !this.cluster) return;
    try {
      const tls = readTlsPair(this.drivers.config);
      if (tls) this.handle?.reloadTls(tls);
      this.cluster?.reloadTls();
    } catch (error) {
      this.drivers.logger.error('electrum: tls reload failed; still serving the previous certificate', { error: (error as Error).message });
    }
  }

  async stop(): Promise<void> {
    this.unfollow?.();
    await this.handle?.close();
    await this.cluster?.stop();
  }
}

/**
 * The writer process's background build of what an upgraded store's scripthash index lacks (docs/schema.md,
 * "Scripthash index"): started after the indexers (a network in its initial load waits for it), stopped before them.
 */
export function scriptHashIndexBuildPart(drivers: Drivers): RuntimePart {
  // Tests slow the build down to kill it halfway (test/e2e/electrum-index-build.test.ts); unset in production.
  const env = (name: string): number | undefined => (process.env[name] ? Number(process.env[name]) : undefined);
  const step = env('OUTPOINT_TEST_SCRIPTHASH_BUILD_STEP');
  const pause = env('OUTPOINT_TEST_SCRIPTHASH_BUILD_PAUSE_MS');
  const build = new ScriptHashIndexBuild(drivers.networks.map((n) => drivers.store.network(n.config.id)), drivers.logger, {
    ...(step ? { stepScripts: step } : {}), ...(pause ? { pauseMs: pause } : {}),
  });
  return { name: 'scripthash index build', start: () => build.start(), stop: () => build.stop() };
}
