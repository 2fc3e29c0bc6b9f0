import type { ChainSource, ChainTip, DisconnectedBlock, NetworkStore } from '../core/index.js';

/**
 * Walks our tip back until it is on the node's main chain, disconnecting each stale block
 * with its stored undo data. Returns the common tip (null if nothing remains) and what was undone.
 */
export async function rollBackToNodeChain(
  source: ChainSource,
  store: NetworkStore,
  tip: ChainTip | null,
): Promise<{ tip: ChainTip | null; disconnected: DisconnectedBlock[] }> {
  const disconnected: DisconnectedBlock[] = [];
  let current = tip;
  while (current) {
    const nodeHash = await source.getBlockHashAt(current.height);
    if (nodeHash === current.hash) break;
    disconnected.push(await store.disconnectTip(current.hash));
    current = await store.getTip();
  }
  return { tip: current, disconnected };
}
