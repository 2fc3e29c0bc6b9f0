import { NotFoundError } from '../../core/errors.js';
import type { ChainTip } from '../../core/store.js';
import type { NetworkContext } from '../../services/network-registry.js';
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
    };

/**
 * The ONE place the explorer derives sync state. Today the services expose only the indexed tip, so a network
 * is "syncing" until its first block is indexed, with no node height or ETA. When the services expose the
 * initial-sync state (index height, node height, ETA), read it here and nothing else changes.
 */
export async function syncStateOf(deps: ExplorerDeps, network: NetworkContext): Promise<SyncState> {
  try {
    const { tip } = await deps.chain.tip(network.id);
    return { kind: 'ready', tip };
  } catch (error) {
    if (error instanceof NotFoundError) return { kind: 'syncing', indexHeight: null, nodeHeight: null, etaSeconds: null };
    throw error;
  }
}
