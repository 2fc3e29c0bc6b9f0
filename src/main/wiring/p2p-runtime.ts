/**
 * One network's P2P side: the sightings watcher (always: it also turns the indexer's own double-spend findings into
 * `double_spend` events) and, when configured (docs/p2p.md), the listener feeding it. The listener starts after the
 * node check, because the magic depends on which chain the node serves (BTCTEST: testnet3 or testnet4).
 */
import type { NetworkConfig } from '../../config/index.js';
import type { EventBus, Logger, NetworkReader } from '../../core/index.js';
import { p2pMagicFor, type NetworkParams } from '../../chains/addressing.js';
import { TxSightingsWatcher } from '../../indexer/sightings/tx-sightings-watcher.js';
import type { NodeClient } from '../../node/rpc/node-client.js';
import { NodePeerAddresses } from '../../node/node-peer-addresses.js';
import { PeerManager } from '../../p2p/peer-manager.js';
import { VERSION } from './version.js';

export class P2pRuntime {
  readonly watcher: TxSightingsWatcher;
  private peers: PeerManager | null = null;
  private tipHeight = 0;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly config: NetworkConfig,
    private readonly params: NetworkParams,
    reader: NetworkReader,
    private readonly bus: EventBus,
    private readonly node: NodeClient,
    private readonly logger: Logger,
    /** The network's initial sync is under way (the indexer's): no store checks, no events until it is done. */
    syncing: () => boolean,
  ) {
    this.watcher = new TxSightingsWatcher({ network: config.id, mweb: params.features.mweb, reader, bus, logger, syncing });
  }

  /** The listener, once started (tests and benchmarks look at its connections). */
  get listener(): PeerManager | null {
    return this.peers;
  }

  async start(): Promise<void> {
    this.watcher.start();
    const { p2p } = this.config;
    if (!p2p.enabled) return;
    const genesis = await this.node.getBlockHash(0);
    this.tipHeight = await this.node.rpc.call<number>('getblockcount');
    this.unsubscribe = this.bus.subscribe((e) => {
      if (e.kind === 'block_connected' && e.network === this.config.id) this.tipHeight = e.height;
    });
    this.peers = new PeerManager({
      magic: p2pMagicFor(this.params, genesis),
      protocolVersion: this.params.p2pProtocolVersion,
      defaultPort: this.params.defaultP2pPort,
      witness: this.params.features.segwit,
      mweb: this.params.features.mweb,
      configured: p2p.peers,
      discovery: p2p.discover ? new NodePeerAddresses(this.node.rpc) : null,
      targetPeers: p2p.targetPeers,
      userAgent: `/Outpoint:${VERSION}/`,
      startHeight: () => this.tipHeight,
      events: this.watcher,
      logger: this.logger,
      logFields: { network: this.config.id },
    });
    this.watcher.attach(this.peers);
    this.peers.start();
    this.logger.info('p2p: listening', { network: this.config.id, peers: p2p.peers.length, discover: p2p.discover, target: p2p.targetPeers });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.peers?.stop();
    await this.watcher.stop();
  }
}
