import { OutpointError } from '../core/errors.js';

/** v3: the API-KEY header is missing, unknown, revoked, or its account's plan period is over (HTTP 401). */
export class UnauthorizedError extends OutpointError {
  constructor(message: string) {
    super('UNAUTHORIZED', message);
  }
}

/** v3: the account used its plan's requests for the current UTC day (HTTP 429). */
export class QuotaExceededError extends OutpointError {
  constructor(
    readonly limit: number,
    /** Seconds until the next UTC midnight, when the count starts again. */
    readonly retryAfter: number,
  ) {
    super('QUOTA_EXCEEDED', `daily request quota of ${limit} exceeded; it resets at 00:00 UTC (in ${retryAfter} s)`);
  }
}

/** v3: the account already has its plan's max_concurrent_requests in flight (HTTP 429, retry when one is done). */
export class ConcurrencyExceededError extends OutpointError {
  constructor(readonly limit: number) {
    super('CONCURRENCY_EXCEEDED', `too many concurrent requests: the plan allows ${limit} at once; retry when one has finished`);
  }
}
