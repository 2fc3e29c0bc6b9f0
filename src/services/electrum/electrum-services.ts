/**
 * The Electrum server's services (docs/electrum.md), one set per network, built once per process by main: scripthash
 * reads and statuses, headers and checkpoint proofs, transactions and broadcasts, fee figures. Chain reads pass the
 * networks' sync gate (a network in its initial sync answers "syncing" errors, as the HTTP APIs answer 503).
 */
import type { NetworkParams } from '../../chains/network-params.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { SyncStatusSource } from '../../core/domain/sync-status.js';
import type { TxBroadcaster } from '../../core/sources/broadcaster.js';
import type { ElectrumNodeSource } from '../../core/sources/electrum-node.js';
import type { RawTxSource } from '../../core/sources/raw-txs.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import type { ScriptHashReader } from '../../core/store/script-hash-reads.js';
import { NetworkRegistry, type NetworkContext } from '../shared/network-registry.js';
import { SyncGate } from '../shared/sync-gate.js';
import { storeSyncStatusSource, SyncStatusCache } from '../shared/sync-status-cache.js';
import { ElectrumChainService } from './chain-service.js';
import { ElectrumFeeService } from './electrum-fee-service.js';
import { ScriptHashService } from './script-hash-service.js';
import { ElectrumTxService } from './tx-service.js';

export interface ElectrumNetworkSource {
  readonly params: NetworkParams;
  readonly reader: NetworkReader;
  readonly scriptHashes: ScriptHashReader;
  readonly rawTxs?: RawTxSource;
  /** The node's fee figures, verbose txs and packages; null: those methods answer an error. */
  readonly node: ElectrumNodeSource | null;
}

export interface ElectrumServiceDeps {
  readonly networks: ReadonlyMap<NetworkId, ElectrumNetworkSource>;
  readonly broadcaster: TxBroadcaster;
  readonly maxHistory: number;
  readonly cachedScripts?: number;
  readonly syncStatus?: SyncStatusSource;
  readonly logger: Logger;
}

export interface ElectrumNetworkServices {
  readonly id: NetworkId;
  readonly params: NetworkParams;
  /** The gated reader (tips, txs, blocks). */
  readonly context: NetworkContext;
  readonly scripthashes: ScriptHashService;
  readonly chain: ElectrumChainService;
  readonly txs: ElectrumTxService;
  readonly fees: ElectrumFeeService;
}

export function createElectrumServices(deps: ElectrumServiceDeps): Map<NetworkId, ElectrumNetworkServices> {
  const now = (): number => Math.floor(Date.now() / 1000);
  const gate = new SyncGate(new SyncStatusCache(deps.syncStatus ?? storeSyncStatusSource(deps.networks, now)), now);
  const registry = new NetworkRegistry(new Map([...deps.networks].map(([id, n]) => [id, { params: n.params, reader: n.reader, ...(n.rawTxs ? { rawTxs: n.rawTxs } : {}) }])), gate);
  const out = new Map<NetworkId, ElectrumNetworkServices>();
  for (const [id, source] of deps.networks) {
    const context = registry.resolve(id);
    out.set(id, {
      id, params: source.params, context,
      scripthashes: new ScriptHashService(id, source.scriptHashes, gate, {
        maxHistory: deps.maxHistory, ...(deps.cachedScripts !== undefined ? { cachedScripts: deps.cachedScripts } : {}),
      }),
      chain: new ElectrumChainService(id, source.scriptHashes, context.reader, gate),
      txs: new ElectrumTxService(context, source.node, deps.broadcaster),
      fees: new ElectrumFeeService(source.node, context.reader),
    });
  }
  return out;
}
