/** Longest wait between retries of a refused refresh. */
const MAX_RETRY_MS = 30_000;

/**
 * How long a refused refresh waits: the server's Retry-After (or 1 s), doubled with each refusal in a row, at most
 * 30 s, plus up to as much again at random, so tabs refused together do not come back together.
 */
export function retryDelay(failures: number, retryAfter: string | null, random: () => number = Math.random): number {
  const told = Number(retryAfter);
  const base = Math.min(MAX_RETRY_MS, Math.max(Number.isFinite(told) && told > 0 ? told * 1000 : 1000, 500 * 2 ** Math.min(failures, 6)));
  return Math.round(base * (1 + random()));
}
