/**
 * Wallet key derivations per client network and minute (`[wallets] derive_per_minute`; docs/wallets.md, Limits): the
 * keys a client's requests make the server derive (a k-of-n address derives n; key path steps count one each),
 * explorer and v3 together, charged before each derivation job runs (services/limits/client-budget.ts). Past it a
 * read is refused with 429 and the wait; what was derived stays cached, so the retry goes on from there.
 */
import type { Logger } from '../../core/infrastructure/logger.js';
import type { RateCounter } from '../../core/limits/rate-counter.js';
import { ClientBudget } from '../limits/client-budget.js';
import type { Charge } from './wallet-keys.js';

/** Derivations per client network and minute unless configured: one person browsing wallets never meets it. */
export const DEFAULT_DERIVE_PER_MINUTE = 20_000;

export class DerivationBudget {
  private readonly budget: ClientBudget;

  /** `counter` null or `perMinute` 0: no limit. */
  constructor(perMinute: number, counter: RateCounter | null, logger: Logger) {
    this.budget = new ClientBudget({
      perMinute, counter, logger, name: 'wallet derivation budget',
      refusal: (limit, wait) => `this client network has derived its ${limit} wallet keys of the minute (a k-of-n address is n): retry in ${wait} s (what was derived is kept, the retry goes on from there)`,
    });
  }

  /** What `client` (its address, `request.ip`) may derive; null: nobody's budget (internal reads, benchmarks). */
  charge(client: string | null): Charge {
    if (client === null || !this.budget.enabled) return async () => undefined;
    return (derivations) => this.budget.take(client, derivations);
  }

  close(): Promise<void> {
    return this.budget.close();
  }
}
