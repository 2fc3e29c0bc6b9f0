import type { OutpointConfig } from '../config/index.js';
import { MemoryEventBus, type ChainStore, type EventBus, type Logger } from '../core/index.js';
import { createNetworkRuntime, type NetworkRuntime } from './network-runtime.js';
import { openStore } from './open-store.js';

/** Everything `outpoint index` and `outpoint serve` run: the store, the bus, one indexer per network. */
export class Runtime {
  readonly store: ChainStore;
  readonly bus: EventBus;
  readonly networks: readonly NetworkRuntime[];

  constructor(
    readonly config: OutpointConfig,
    private readonly logger: Logger,
  ) {
    this.store = openStore(config.store.url);
    this.bus = new MemoryEventBus((err) => logger.error('event subscriber failed', { error: String(err) }));
    this.networks = config.networks.map((n) => createNetworkRuntime(n, this.store, this.bus, logger));
  }

  async startIndexers(): Promise<void> {
    await this.store.migrate();
    for (const network of this.networks) {
      this.logger.info('indexing', { network: network.config.id, chain: network.config.chain, node: redact(network.config.rpcUrl) });
      network.indexer.start();
      await network.notifier.start();
    }
  }

  async stop(): Promise<void> {
    for (const network of this.networks) await network.notifier.stop();
    for (const network of this.networks) await network.indexer.stop();
    await this.store.close();
  }
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
