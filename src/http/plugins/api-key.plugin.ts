import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConcurrencyExceededError, QuotaExceededError, UnauthorizedError } from '../../core/domain/errors.js';
import type { AccountService, Principal } from '../../services/accounts/account-service.js';
import type { KeyFailureLimit } from '../../services/limits/key-failure-limit.js';
import type { UsageCounter } from '../../core/limits/usage-counter.js';
import { secondsToUtcMidnight } from '../../core/limits/utc-day.js';
import type { Rejections } from './http-metrics.plugin.js';
import { releaseWhenDone } from './release-when-done.js';
import type { ConcurrencyLimiter } from '../../core/limits/concurrency-limiter.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The v3 account the request authenticated as (set by the api-key plugin). */
    v3Principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Authenticated but neither counted nor refused over quota (account_info: a client over quota can still see why). */
    quotaFree?: boolean;
  }
}

export interface ApiKeyOptions {
  readonly accounts: AccountService;
  readonly usage: UsageCounter;
  /** UNIX seconds. */
  readonly now: () => number;
  /** Requests in flight per account (the plan's max_concurrent_requests), shared through Redis when configured. */
  readonly limiter: ConcurrencyLimiter;
  /** Counts requests refused over quota or concurrency (metrics). */
  readonly rejections: Rejections;
  /** 401s per client network; past its limit a network gets 429 before any key lookup. */
  readonly failures: KeyFailureLimit;
}

/**
 * Every request of the encapsulating context needs the `API-KEY` header: missing, unknown, revoked → 401
 * (UnauthorizedError), counted per client network; past `failures`' limit → 429 without a lookup (keys good when
 * last looked up are still looked up). Authenticated requests are counted per account and UTC day; past the plan's
 * max_daily_requests → 429 until 00:00 UTC. Refused requests are counted too (they were made). A plan with
 * max_concurrent_requests > 0 also holds a slot per request until its answer is sent: one more → 429.
 */
export function installApiKey(app: FastifyInstance, options: ApiKeyOptions): void {
  app.decorateRequest('v3Principal', null);
  // Callback style: with the key's verdict and the day's count cached (the usual case) the check completes
  // synchronously, without the promise an async hook costs on every request.
  app.addHook('onRequest', (request, reply, done) => {
    // Unknown paths answer 404 whatever the key: the caller's bug is the path.
    if (request.is404) return done();
    const header = request.headers['api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    let principal: Principal | null;
    try {
      principal = options.accounts.cached(key);
    } catch (error) {
      return refuse(request, error as Error, done);
    }
    if (principal) return count(request, reply, principal, done);
    // A network over its 401 limit is refused before the store is asked, unless this key was good when last seen.
    if (!options.accounts.knownGood(key) && limitedOut(request, done)) return;
    options.accounts.authenticate(key).then((p) => count(request, reply, p, done), (error: Error) => refuse(request, error, done));
  });

  /** Answers 429 (true) when the client's network is over its 401 limit. */
  function limitedOut(request: FastifyRequest, done: (error?: Error) => void): boolean {
    const limited = options.failures.refusal(request.ip);
    if (!limited) return false;
    options.rejections.count('v3', 'key_failures');
    done(limited);
    return true;
  }

  /** A 401 counts against the client's network; once it is over its limit the answer is 429 instead. */
  function refuse(request: FastifyRequest, error: Error, done: (error?: Error) => void): void {
    if (!(error instanceof UnauthorizedError)) return done(error);
    if (limitedOut(request, done)) return;
    // Where other processes count with this one, the 401 goes out once they have it: a client's next request, on
    // whichever worker it lands, is checked against a count that holds this one.
    options.failures.record(request.ip);
    const shared = options.failures.share?.(request.ip);
    if (shared) shared.then(() => done(error), () => done(error));
    else done(error);
  }

  function count(request: FastifyRequest, reply: FastifyReply, principal: Principal, done: (error?: Error) => void): void {
    request.v3Principal = principal;
    const now = options.now();
    if (request.routeOptions.config.quotaFree) {
      options.usage.touchKey(principal.keyId, now);
      return done();
    }
    const limit = principal.account.plan.maxDailyRequests;
    const judge = (used: number): void => {
      reply.header('X-Quota-Limit', String(limit));
      reply.header('X-Quota-Remaining', String(Math.max(0, limit - used)));
      if (used > limit) {
        options.rejections.count('v3', 'daily_quota');
        return done(new QuotaExceededError(limit, secondsToUtcMidnight(now)));
      }
      holdSlot(reply, principal, done);
    };
    const used = options.usage.hitCached(principal.account.id, now, principal.keyId);
    if (used !== null) return judge(used);
    options.usage.hit(principal.account.id, now, principal.keyId).then(judge, (error: Error) => done(error));
  }

  /** Plans without a concurrency limit (0) skip this and its round trip. */
  function holdSlot(reply: FastifyReply, principal: Principal, done: (error?: Error) => void): void {
    const max = principal.account.plan.maxConcurrentRequests;
    if (max <= 0) return done();
    options.limiter.acquire(`account:${principal.account.id}`, max).then((release) => {
      if (!release) {
        options.rejections.count('v3', 'account_concurrency');
        return done(new ConcurrencyExceededError(max));
      }
      releaseWhenDone(reply, release);
      done();
    }, (error: Error) => done(error));
  }
}
