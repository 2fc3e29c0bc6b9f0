/**
 * When a failed delivery is tried again (docs/webhooks.md): the first retry within 10 s, then doubling, capped at one
 * hour, each delay drawn between half and all of its step (jitter, so receivers coming back are not hit by every
 * sender at once); after `retryHours` since the delivery was made it is failed for good.
 */
export const FIRST_RETRY_MS = 10_000;
export const MAX_RETRY_MS = 3_600_000;

/** `attempts`: attempts made so far (1 after the first). Null: give up. */
export function nextAttemptAt(attempts: number, createdAt: number, nowMs: number, retryHours: number, random: () => number = Math.random): number | null {
  const step = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 20));
  const delay = Math.round(step / 2 + (random() * step) / 2);
  const at = nowMs + delay;
  // The last attempt may fall after the window's end; none starts past it.
  return nowMs - createdAt >= retryHours * 3_600_000 ? null : at;
}
