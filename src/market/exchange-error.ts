/** Why one exchange request failed; the poller backs off on any of them and longer when rate-limited. */
export class ExchangeError extends Error {
  constructor(
    message: string,
    /** The exchange asked us to slow down (HTTP 429/418 or its own rate-limit error). */
    readonly rateLimited = false,
    /** From a Retry-After header: wait at least this long before asking again. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ExchangeError';
  }
}
