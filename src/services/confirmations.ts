import type { ChainTip } from '../core/store.js';

/** Confirmations of something at `height` on the current main chain: 0 when unconfirmed (null height) or not yet reached. */
export function confirmationsAt(tip: ChainTip | null, height: number | null): number {
  if (height === null || tip === null || height > tip.height) return 0;
  return tip.height - height + 1;
}
