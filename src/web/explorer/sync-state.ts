import { NotFoundError } from '../../core/domain/errors.js';
import type { ChainTip } from '../../core/domain/chain-types.js';
import type { SyncPhase } from '../../core/domain/sync-status.js';
import type { NetworkContext } from '../../services/shared/network-registry.js';
import type { ExplorerDeps } from './explorer-deps.js';

/**
 * Whether a network's index can be shown. While it is syncing, pages say so (with progress when known) instead
 * of showing partial data.
 */
export type SyncState =
  | { readonly kind: 'ready'; readonly tip: ChainTip }
  | {
      readonly kind: 'syncing';
      /** Highest indexed block, null before the first. */
      readonly indexHeight: number | null;
      /** The node's height, null while unknown. */
      readonly nodeHeight: number | null;
      readonly etaSeconds: number | null;
      /** The initial sync's phase (core/domain/sync-status.ts), null before the indexer has written one. */
      readonly phase: SyncPhase | null;
    };

/**
 * The ONE place the explorer derives sync state: the network's initial-sync status (the same snapshot the APIs'
 * 503 answers and get_info read), else "syncing" until its first block is indexed.
 */
export async function syncStateOf(deps: ExplorerDeps, network: NetworkContext): Promise<SyncState> {
  const status = await deps.services.networks.syncing(network.id);
  if (status) {
    return { kind: 'syncing', indexHeight: status.height, nodeHeight: status.targetHeight, etaSeconds: status.etaSeconds, phase: status.phase };
  }
  try {
    const { tip } = await deps.chain.tip(network.id);
    return { kind: 'ready', tip };
  } catch (error) {
    if (error instanceof NotFoundError) return { kind: 'syncing', indexHeight: null, nodeHeight: null, etaSeconds: null, phase: null };
    throw error;
  }
}
