import { workFromBits } from '../../chains/parsing.js';
import type { ChainTip } from '../../core/domain/chain-types.js';
import type { NetworkReader } from '../../core/store/network-store.js';

/** Blocks averaged, as Core's getnetworkhashps defaults to. */
export const HASHRATE_WINDOW = 120;

/**
 * Hashes per second estimated from the chain itself: the expected work of the last `window` blocks
 * (from their bits) over the time between the block before them and the tip. 0 when the chain is too
 * short or its timestamps give no positive span.
 */
export async function estimateHashrate(reader: NetworkReader, tip: ChainTip, window = HASHRATE_WINDOW): Promise<bigint> {
  const first = Math.max(0, tip.height - window);
  if (tip.height === first) return 0n;
  // One read of the window's block rows: their txids (thousands a block on mainnet) are not needed.
  const blocks = await reader.getBlockHeaders(first, tip.height);
  if (blocks.length !== tip.height - first + 1) return 0n;
  const [start, ...counted] = blocks;
  const times = blocks.map((b) => b.time);
  const span = Math.max(...times) - Math.min(...times);
  if (!start || span <= 0) return 0n;
  const work = counted.reduce((sum, b) => sum + workFromBits(b.bits), 0n);
  return work / BigInt(span);
}
