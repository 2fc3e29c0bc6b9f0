/**
 * The background build of a store's scripthash index (docs/schema.md, "Scripthash index"), run by the process that
 * writes the networks: a store upgraded from before the index has it built over the scripts it already holds, a
 * bounded step at a time with a pause between steps, so the indexer and the APIs of the same process keep their turns
 * (SQLite's steps are synchronous). Each step commits its progress: a kill resumes from the last step. A network in
 * its initial load waits (the load ends by building the index whole); a network another process writes waits too
 * (WriterStandbyError: that process builds). Scripthash lookups answer "building" until the build is done.
 */
import { WriterStandbyError } from '../../core/domain/errors.js';
import type { Logger } from '../../core/infrastructure/logger.js';
import type { NetworkStore } from '../../core/store/network-store.js';

export interface ScriptHashIndexBuildOptions {
  /** Scripts per step: SQLite indexes ~5,000 in 25-50 ms here. */
  readonly stepScripts?: number;
  /** Between two steps: the event loop's turn (half of a core at most goes to the build). */
  readonly pauseMs?: number;
  /** After a failure or while another process writes or a load runs. */
  readonly retryMs?: number;
  /** Progress log lines at most this often. */
  readonly logEveryMs?: number;
}

type Buildable = Pick<NetworkStore, 'id' | 'buildScriptHashIndex' | 'getBulkLoad'>;

export class ScriptHashIndexBuild {
  private stopped = false;
  private running: Promise<void> | null = null;
  /** Pending sleeps, ended at once by stop(). */
  private readonly sleepers = new Set<() => void>();
  private readonly step: number;
  private readonly pauseMs: number;
  private readonly retryMs: number;
  private readonly logEveryMs: number;

  constructor(private readonly stores: readonly Buildable[], private readonly logger: Logger, options: ScriptHashIndexBuildOptions = {}) {
    this.step = options.stepScripts ?? 5_000;
    this.pauseMs = options.pauseMs ?? 25;
    this.retryMs = options.retryMs ?? 30_000;
    this.logEveryMs = options.logEveryMs ?? 10_000;
  }

  start(): void {
    this.running ??= Promise.all(this.stores.map((s) => this.build(s))).then(() => undefined);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const wake of this.sleepers) wake();
    await this.running;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  private async build(store: Buildable): Promise<void> {
    let loggedAt = 0;
    let began: number | null = null;
    while (!this.stopped) {
      try {
        if (await store.getBulkLoad()) {
          await this.sleep(this.retryMs);
          continue;
        }
        const state = await store.buildScriptHashIndex(this.step);
        if (state.ready) {
          if (began !== null) this.logger.info('scripthash index built', { network: store.id, seconds: Math.round((Date.now() - began) / 1000) });
          return;
        }
        began ??= Date.now();
        if (Date.now() - loggedAt >= this.logEveryMs) {
          loggedAt = Date.now();
          this.logger.info('building the scripthash index (Electrum lookups answer "building" until done)', { network: store.id, percent: Math.floor(state.progress * 100) });
        }
        await this.sleep(this.pauseMs);
      } catch (error) {
        if (!(error instanceof WriterStandbyError)) this.logger.warn('scripthash index build step failed; retrying', { network: store.id, error: (error as Error).message });
        await this.sleep(this.retryMs);
      }
    }
  }
}
