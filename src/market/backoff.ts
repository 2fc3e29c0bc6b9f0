/**
 * How long a source waits before its next request: the interval after a success; after n failures in a row
 * interval × 2^n, capped, and never less than the exchange's Retry-After.
 */
export function nextDelayMs(intervalMs: number, failures: number, maxBackoffMs: number, retryAfterMs: number | null = null): number {
  if (failures === 0) return intervalMs;
  const backoff = Math.min(intervalMs * 2 ** Math.min(failures, 30), Math.max(maxBackoffMs, intervalMs));
  return Math.max(backoff, retryAfterMs ?? 0);
}
