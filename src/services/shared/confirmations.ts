import type { ChainTip } from '../../core/domain/chain-types.js';

/** Confirmations of something at `height` on the current main chain: 0 when unconfirmed (null height) or not yet reached. */
export function confirmationsAt(tip: ChainTip | null, height: number | null): number {
  if (height === null || tip === null || height > tip.height) return 0;
  return tip.height - height + 1;
}

/** The spec's rule: a generated-coin (coinbase) transaction counts as confirmed at 240 confirmations. */
export const COINBASE_CONFIRMATIONS = 240;

/** Confirmed as the spec counts it: 1 confirmation, or 240 for a coinbase. is_tx_confirmed and get_confidence both ask this. */
export function isConfirmedBySpec(isCoinbase: boolean, confirmations: number): boolean {
  return confirmations >= (isCoinbase ? COINBASE_CONFIRMATIONS : 1);
}

/**
 * Confidence of a coinbase in a main-chain block that has not reached 240 confirmations: its progress towards
 * them, 0.99 × confirmations / 240 to the spec's 1 % (10 confirmations: 0.04; 239: 0.99); 1.0 once it counts as
 * confirmed. Its coins cannot move before then, and only a reorganisation can undo it, which grows less likely
 * with every block: a monotone figure that reaches 1.0 exactly when is_tx_confirmed turns true.
 */
export function immatureCoinbaseConfidence(confirmations: number): number {
  return Math.min(0.99, Math.round((0.99 * confirmations * 100) / COINBASE_CONFIRMATIONS) / 100);
}
