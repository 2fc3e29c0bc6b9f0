/**
 * Wallet derivations per client network and minute (`[wallets] derive_per_minute`; docs/wallets.md, Limits): the
 * addresses and key path steps a client's requests make the server derive, explorer and v3 together, counted in
 * fixed one-minute windows on the shared rate counters (Redis when configured). Charged before each derivation job
 * runs: a job that starts within the budget runs whole, the next one is refused with BudgetSpentError (429, with the
 * wait). What was derived stays cached, so the retry goes on from there. Counters that fail let requests through (an
 * outage of the limiter must not be an outage of wallets), logged once.
 */
import { BudgetSpentError } from '../../core/domain/errors.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { RateCounter } from '../../core/limits/rate-counter.js';
import { ipSubject } from '../limits/attempt-limiter.js';
import type { Charge } from './derivation-cache.js';

const WINDOW_MS = 60_000;
/** Derivations per client network and minute unless configured: one person browsing wallets never meets it. */
export const DEFAULT_DERIVE_PER_MINUTE = 20_000;

export class DerivationBudget {
  private warned = false;

  /** `counter` null or `perMinute` 0: no limit. */
  constructor(
    private readonly perMinute: number,
    private readonly counter: RateCounter | null,
    private readonly logger: Logger,
  ) {}

  /** What `client` (its address, `request.ip`) may derive; null: nobody's budget (internal reads, benchmarks). */
  charge(client: string | null): Charge {
    const counter = this.counter;
    if (client === null || counter === null || this.perMinute <= 0) return async () => undefined;
    const subject = ipSubject(client);
    return async (derivations) => {
      let window;
      try {
        window = await counter.hit(subject, WINDOW_MS, derivations);
      } catch (error) {
        if (!this.warned) this.logger.warn('wallet derivation budget: counter unavailable; not limiting', { error: (error as Error).message });
        this.warned = true;
        return;
      }
      this.warned = false;
      // The window was spent before this job: refused. A job begun within it runs whole (at most one job over).
      if (window.count - derivations >= this.perMinute) {
        const wait = Math.max(1, Math.ceil(window.resetMs / 1000));
        throw new BudgetSpentError(
          `this client network has derived its ${this.perMinute} wallet addresses of the minute: retry in ${wait} s (what was derived is kept, the retry goes on from there)`,
          wait,
        );
      }
    };
  }

  async close(): Promise<void> {
    await this.counter?.close();
  }
}
