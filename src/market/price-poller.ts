/**
 * Polls every price source on its own timer. A source's request is aborted after timeoutMs; failures back off
 * exponentially per source; one slow or failing exchange never delays another (each has its own loop and no
 * loop awaits another). An unreachable exchange is logged once when it starts failing and once when it
 * recovers, not on every poll: with all seven exchanges on by default, a machine without internet access (or
 * an exchange down for a day) must not fill the log.
 */
import type { Logger } from '../core/infrastructure/logger.js';
import type { PriceQuote, PriceSource } from '../core/domain/prices.js';
import { nextDelayMs } from './backoff.js';
import { ExchangeError } from './exchange-error.js';

export interface PricePollerOptions {
  readonly intervalMs: number;
  readonly timeoutMs: number;
  /** Longest wait after repeated failures (default 10 minutes, never below intervalMs). */
  readonly maxBackoffMs?: number;
  /** Receives each successful fetch; the next poll of that source waits for it (a slow store slows only that source). */
  readonly onQuotes: (source: PriceSource, quotes: readonly PriceQuote[]) => Promise<void>;
  readonly logger: Logger;
}

interface SourceLoop {
  readonly source: PriceSource;
  failures: number;
  /** When the current run of failures began (ms), for the recovery message. */
  failingSince: number;
  timer: NodeJS.Timeout | null;
  abort: AbortController | null;
  running: Promise<void> | null;
  /** Pairs missing from the last answer, to warn on changes rather than on every poll. */
  missing: string;
  /** When the source last answered (ms), null before its first answer. */
  lastSuccessAt: number | null;
  /** Failed polls since start (metrics). */
  failuresTotal: number;
}

/** One source's state for metrics and operators. */
export interface SourceStatus {
  readonly id: string;
  readonly consecutiveFailures: number;
  readonly failuresTotal: number;
  readonly lastSuccessAt: number | null;
}

export class PricePoller {
  private readonly loops: SourceLoop[];
  private stopped = true;

  constructor(sources: readonly PriceSource[], private readonly options: PricePollerOptions) {
    this.loops = sources.map((source) => ({
      source,
      failures: 0,
      failingSince: 0,
      timer: null,
      abort: null,
      running: null,
      missing: '',
      lastSuccessAt: null,
      failuresTotal: 0,
    }));
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    for (const loop of this.loops) loop.running = this.poll(loop);
  }

  /** Cancels timers and in-flight requests; resolves when every loop has settled. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const loop of this.loops) {
      if (loop.timer) clearTimeout(loop.timer);
      loop.timer = null;
      loop.abort?.abort(new ExchangeError('price poller stopped'));
    }
    await Promise.all(this.loops.map((l) => l.running));
  }

  /** Consecutive failures per source id (0 = healthy). */
  failures(): Record<string, number> {
    return Object.fromEntries(this.loops.map((l) => [l.source.id, l.failures]));
  }

  status(): SourceStatus[] {
    return this.loops.map((l) => ({ id: l.source.id, consecutiveFailures: l.failures, failuresTotal: l.failuresTotal, lastSuccessAt: l.lastSuccessAt }));
  }

  private async poll(loop: SourceLoop): Promise<void> {
    const { source } = loop;
    const { intervalMs, timeoutMs, logger } = this.options;
    let retryAfter: number | null = null;
    const abort = new AbortController();
    loop.abort = abort;
    const timeout = setTimeout(() => abort.abort(new ExchangeError(`${source.name}: no answer within ${timeoutMs} ms`)), timeoutMs);
    try {
      const quotes = await untilAborted(source.fetch(abort.signal), abort.signal);
      if (loop.failures > 0) {
        logger.info('market: price source recovered', { source: source.id, failures: loop.failures, downSeconds: Math.round((Date.now() - loop.failingSince) / 1000) });
      }
      loop.failures = 0;
      loop.lastSuccessAt = Date.now();
      this.noteMissing(loop, quotes);
      try {
        await this.options.onQuotes(source, quotes);
      } catch (err) {
        logger.error('market: recording prices failed', { source: source.id, error: message(err) });
      }
    } catch (err) {
      if (this.stopped) return;
      loop.failures++;
      loop.failuresTotal++;
      retryAfter = err instanceof ExchangeError ? err.retryAfterMs : null;
      if (loop.failures === 1) {
        loop.failingSince = Date.now();
        logger.warn('market: price source failing; retrying with backoff, logged again when it recovers', { source: source.id, error: message(err) });
      }
    } finally {
      clearTimeout(timeout);
      loop.abort = null;
    }
    if (this.stopped) return;
    const delay = nextDelayMs(intervalMs, loop.failures, this.options.maxBackoffMs ?? 600_000, retryAfter);
    loop.timer = setTimeout(() => {
      loop.timer = null;
      loop.running = this.poll(loop);
    }, delay);
  }

  private noteMissing(loop: SourceLoop, quotes: readonly PriceQuote[]): void {
    const got = new Set(quotes.map((q) => `${q.coin}/${q.base}`));
    const missing = loop.source.pairs.map((p) => `${p.coin}/${p.base}`).filter((p) => !got.has(p)).join(', ');
    if (missing !== loop.missing && missing !== '') this.options.logger.warn('market: pairs without a price', { source: loop.source.id, pairs: missing });
    loop.missing = missing;
  }
}

/** A source that ignores its signal must still not hold its loop past the timeout. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
