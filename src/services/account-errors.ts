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

/**
 * Dashboard: a sign-in, reset or code failed. One message whatever the cause (unknown email, wrong password,
 * no password set), so the answer never tells whether an account exists.
 */
export class InvalidCredentialsError extends OutpointError {
  constructor(message = 'The email address or the password is wrong.') {
    super('UNAUTHORIZED', message);
  }
}

/** Dashboard: the action needs an administrator (or another account's data was asked for). */
export class ForbiddenError extends OutpointError {
  constructor(message = 'This page is for administrators.') {
    super('UNAUTHORIZED', message);
  }
}

/**
 * Dashboard: too many attempts (sign-in, reset, sign-up) from this IP or for this email in the current window.
 * The text names the wait, never how many attempts are left, and is the same for unknown emails.
 */
export class TooManyAttemptsError extends OutpointError {
  constructor(readonly retryAfter: number) {
    super('RATE_LIMITED', `Too many attempts. Try again in ${Math.max(1, Math.ceil(retryAfter / 60))} minute${retryAfter > 60 ? 's' : ''}.`);
  }
}

/** Dashboard: every password-hash slot and its queue are taken (a sign-in flood); the caller may retry shortly. */
export class BusyError extends OutpointError {
  constructor() {
    super('RATE_LIMITED', 'The server is busy checking other sign-ins. Try again in a few seconds.');
  }
}
