/**
 * v3 requests refused with 401 (no key, a key of the wrong shape, an unknown or revoked key) counted per client
 * network (IPv4 address, IPv6 /64: ipSubject). Past `max` in a window the network gets 429 before its key is
 * looked up at all: guessing keys, or a flood of junk keys, costs the store and the key cache nothing further.
 * Requests with a valid key are never counted or refused here (a client's own bad key must not lock out its good
 * one). Counted in this process only: the check runs on the request path without a Redis round trip, so N API
 * processes allow N × max (docs/operations.md, Security).
 */
import { KeyFailuresLimitedError } from '../../core/domain/errors.js';
import { ipSubject } from './attempt-limiter.js';
import { WindowCounts } from '../../core/limits/window-counts.js';

/**
 * Bound: one key per client network that failed in the window. 50,000 networks (each key ~30 bytes) stay under
 * ~8 MiB; past it the oldest windows go (window-counts.ts). Tested in key-failure-limit.test.ts.
 */
export const KEY_FAILURE_NETWORKS_MAX = 50_000;

export interface KeyFailureRule {
  /** Refused requests allowed per client network and window; 0 turns the limit off. */
  readonly max: number;
  readonly windowSeconds: number;
}

/** `[accounts] key_failures_per_ip` (default 100) per minute. */
export const DEFAULT_KEY_FAILURES: KeyFailureRule = { max: 100, windowSeconds: 60 };

export class KeyFailureLimit {
  private readonly counts: WindowCounts;

  constructor(
    private readonly rule: KeyFailureRule,
    nowMs: () => number = Date.now,
    maxNetworks = KEY_FAILURE_NETWORKS_MAX,
  ) {
    this.counts = new WindowCounts(maxNetworks, nowMs);
  }

  /** The refusal to answer instead of looking the key up, when the client's network is over its limit. */
  refusal(ip: string): KeyFailuresLimitedError | null {
    if (this.rule.max <= 0) return null;
    const window = this.counts.peek(ipSubject(ip));
    return window.count >= this.rule.max ? new KeyFailuresLimitedError(Math.ceil(window.resetMs / 1000)) : null;
  }

  /**
   * Other processes counting with this one (HTTP workers, main/wiring/processes/http-worker.ts): told of each 401
   * this one counts, resolving once they have it; the 401 waits for it. Null: this process counts alone.
   */
  share: ((ip: string) => Promise<void>) | null = null;

  /** Counts one 401 for the client's network. */
  record(ip: string): void {
    if (this.rule.max > 0) this.counts.add(ipSubject(ip), this.rule.windowSeconds * 1000);
  }

  /** Networks held now (tests check the bound). */
  get size(): number {
    return this.counts.size;
  }
}
