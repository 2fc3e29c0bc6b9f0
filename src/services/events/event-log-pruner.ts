import type { NetworkId } from '../../core/domain/network.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { EventLogStore } from '../../core/store/event-log-store.js';

export interface EventLogRetention {
  /** Events logged longer ago than this are deleted (`[realtime] event_log_hours`). */
  readonly hours: number;
  /** At most this many ids are kept per network, whatever their age (`[realtime] event_log_max_events`). */
  readonly maxEvents: number;
}

/** Once a minute the writer process trims each network's log; a run that fails is retried at the next. */
export class EventLogPruner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly log: EventLogStore,
    private readonly networks: readonly NetworkId[],
    private readonly retention: EventLogRetention,
    private readonly logger: Logger,
    private readonly intervalMs = 60_000,
    private readonly nowS: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
    void this.runOnce();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  runOnce(): Promise<void> {
    this.running ??= this.prune().finally(() => (this.running = null));
    return this.running;
  }

  private async prune(): Promise<void> {
    const before = this.nowS() - this.retention.hours * 3600;
    for (const network of this.networks) {
      try {
        const deleted = await this.log.prune(network, before, this.retention.maxEvents);
        if (deleted > 0) this.logger.debug?.('event log pruned', { network, rows: deleted });
      } catch (error) {
        this.logger.warn('event log: prune failed; retrying in a minute', { network, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
}
