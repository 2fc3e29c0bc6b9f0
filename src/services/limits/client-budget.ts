/**
 * A per-client-network budget of something expensive, counted in units per minute (addresses derived, bytes sent):
 * fixed one-minute windows on the shared rate counters (Redis when configured), keyed by the client's network (IPv4
 * address, IPv6 /64: ipSubject). Work is charged before it is done; work that starts within the budget is done whole
 * and the next is refused with BudgetSpentError (429, with the wait), so a budget is passed by at most one unit of
 * work. Counters that fail let work through (an outage of the limiter must not be an outage of the service), logged
 * once until they work again.
 */
import { BudgetSpentError } from '../../core/domain/errors.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { RateCounter } from '../../core/limits/rate-counter.js';
import { ipSubject } from './attempt-limiter.js';

const WINDOW_MS = 60_000;

export interface ClientBudgetOptions {
  /** Units per client network and minute; 0 turns the budget off. */
  readonly perMinute: number;
  /** Null: no budget (tests and tools without counters). */
  readonly counter: RateCounter | null;
  readonly logger: Logger;
  /** Names the budget in the one warning logged when its counter fails. */
  readonly name: string;
  /** The refusal's message, given the budget and the wait in seconds. */
  readonly refusal: (perMinute: number, waitSeconds: number) => string;
}

export class ClientBudget {
  private warned = false;

  constructor(private readonly options: ClientBudgetOptions) {}

  get enabled(): boolean {
    return this.options.counter !== null && this.options.perMinute > 0;
  }

  /**
   * Charges `units` to the network of `client` (its address, `request.ip`); BudgetSpentError when the window was spent
   * before them. `units` 0 only asks whether it is.
   */
  async take(client: string, units: number): Promise<void> {
    const { counter, perMinute } = this.options;
    if (counter === null || perMinute <= 0) return;
    let window;
    try {
      window = await counter.hit(ipSubject(client), WINDOW_MS, units);
    } catch (error) {
      if (!this.warned) this.options.logger.warn(`${this.options.name}: counter unavailable; not limiting`, { error: (error as Error).message });
      this.warned = true;
      return;
    }
    this.warned = false;
    if (window.count - units >= perMinute) {
      const wait = Math.max(1, Math.ceil(window.resetMs / 1000));
      throw new BudgetSpentError(this.options.refusal(perMinute, wait), wait);
    }
  }

  async close(): Promise<void> {
    await this.options.counter?.close();
  }
}
