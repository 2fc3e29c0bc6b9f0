import type { NetworkParams } from '../../chains/network-params.js';
import { UnsupportedNetworkError } from '../../core/domain/errors.js';
import { isNetworkId, type NetworkId } from '../../core/domain/network.js';
import type { RawTxSource } from '../../core/sources/raw-txs.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import type { SyncStatus } from '../../core/domain/sync-status.js';
import type { TxSightings } from '../../core/sources/tx-sightings.js';
import { GatedNetworkReader } from './gated-reader.js';
import type { SyncGate } from './sync-gate.js';

/** One network this server answers for: its parameters and the index it reads. */
export interface NetworkContext {
  readonly id: NetworkId;
  readonly params: NetworkParams;
  /** Gated: its chain reads reject with IndexSyncingError while the network is in its initial sync. */
  readonly reader: NetworkReader;
  /** What the P2P listener saw (announcements, peer-only txs, conflicts); null where this process runs none. */
  readonly sightings: TxSightings | null;
  /** Raw bytes of confirmed txs the store does not keep (raw_txs = "node"); read them through raw-tx-reader.ts. */
  readonly rawTxs: RawTxSource | null;
}

export type NetworkMap = ReadonlyMap<
  NetworkId,
  { readonly params: NetworkParams; readonly reader: NetworkReader; readonly sightings?: TxSightings | null; readonly rawTxs?: RawTxSource }
>;

/**
 * Resolves API acronyms to configured networks. Acronyms are matched exactly as the spec writes
 * them (upper case); a valid acronym that this server does not index is as unsupported as garbage.
 */
export class NetworkRegistry {
  private readonly contexts = new Map<NetworkId, NetworkContext>();

  constructor(networks: NetworkMap, private readonly gate: SyncGate) {
    for (const [id, { params, reader, sightings, rawTxs }] of networks) {
      this.contexts.set(id, { id, params, reader: new GatedNetworkReader(id, reader, gate), sightings: sightings ?? null, rawTxs: rawTxs ?? null });
    }
  }

  /** Null when the network answers chain queries; else its initial-sync status as of now (the gate's own snapshot). */
  syncing(id: NetworkId): Promise<SyncStatus | null> {
    return this.gate.syncing(id);
  }

  resolve(acronym: string): NetworkContext {
    const context = isNetworkId(acronym) ? this.contexts.get(acronym) : undefined;
    if (!context) throw new UnsupportedNetworkError(acronym.slice(0, 20));
    return context;
  }

  find(acronym: string): NetworkContext | null {
    return isNetworkId(acronym) ? (this.contexts.get(acronym) ?? null) : null;
  }

  ids(): NetworkId[] {
    return [...this.contexts.keys()];
  }
}
