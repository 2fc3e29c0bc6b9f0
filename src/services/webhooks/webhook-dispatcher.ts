import type { Logger } from '../../core/infrastructure/logger.js';
import type { WebhookSender } from '../../core/sources/webhook-sender.js';
import type { Delivery, WebhookStore } from '../../core/store/webhook-store.js';
import { nextAttemptAt } from './webhook-backoff.js';
import { signature } from './webhook-signing.js';

export interface DispatcherOptions {
  /** Deliveries in flight at once in this process. */
  readonly concurrency: number;
  /** Days of retries before a delivery fails (`[webhooks] retry_hours`). */
  readonly retryHours: number;
  /** How long a claim holds a delivery: longer than a call's timeout, so a live claimer never loses it mid-call. */
  readonly leaseMs: number;
  /** Sleep between claims when nothing was due. */
  readonly idleMs: number;
}

/**
 * Attempts due deliveries (docs/webhooks.md, Delivery). Every process that serves runs one: deliveries are claimed in
 * the store with a lease, so each is attempted by one process at a time; a process killed mid-call loses its claims
 * when their lease ends and another (or itself, restarted) takes them. Each attempt is recorded before the next.
 */
export class WebhookDispatcher {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly store: WebhookStore,
    private readonly sender: WebhookSender,
    private readonly options: DispatcherOptions,
    private readonly logger: Logger,
    private readonly nowMs: () => number = Date.now,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Claims at once instead of after the idle sleep (new deliveries were just stored). */
  poke(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    this.sender.close();
  }

  private async run(): Promise<void> {
    while (this.running) {
      const free = this.options.concurrency - this.inFlight.size;
      let claimed: Delivery[] = [];
      if (free > 0) {
        try {
          claimed = await this.store.claim(this.nowMs(), this.options.leaseMs, free);
        } catch (error) {
          this.logger.warn('webhooks: claiming deliveries failed; retrying', { error: error instanceof Error ? error.message : String(error) });
        }
      }
      for (const delivery of claimed) {
        const attempt = this.attempt(delivery).finally(() => {
          this.inFlight.delete(attempt);
          this.wake?.();
        });
        this.inFlight.add(attempt);
      }
      if (claimed.length === 0 || this.inFlight.size >= this.options.concurrency) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), this.options.idleMs);
      const done = (): void => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      this.wake = done;
    });
  }

  private async attempt(delivery: Delivery): Promise<void> {
    const response = await this.sender.send({
      url: delivery.url,
      body: delivery.body,
      headers: { 'x-outpoint-event': delivery.event, 'x-outpoint-delivery': delivery.id, 'x-outpoint-signature': signature(delivery.secret, delivery.body) },
    });
    const now = this.nowMs();
    try {
      if (response.ok) {
        await this.store.settle(delivery.id, { state: 'delivered', nextAt: null, status: response.status, error: null }, now);
        return;
      }
      const next = nextAttemptAt(delivery.attempts + 1, delivery.createdAt, now, this.options.retryHours);
      await this.store.settle(delivery.id, { state: next === null ? 'failed' : 'pending', nextAt: next, status: response.status, error: response.error }, now);
    } catch (error) {
      // Not recorded: the lease ends and the delivery is attempted again (at least once, never lost).
      this.logger.warn('webhooks: recording an attempt failed', { delivery: delivery.id, error: error instanceof Error ? error.message : String(error) });
    }
  }
}
