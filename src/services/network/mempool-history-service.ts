import type { MempoolSample, MempoolSampleStore } from '../../core/store/mempool-sample-store.js';
import type { NetworkRegistry } from '../shared/network-registry.js';

/** The chart's window. */
export const HISTORY_SECONDS = 24 * 3600;
/** At most this many points are drawn (five-minute steps over a day of one-minute samples). */
export const MAX_HISTORY_POINTS = 288;
/** Pages share one read per network for this long: a busy mempool page is not a query per view. */
const CACHE_MS = 5_000;

export interface MempoolHistory {
  /** UNIX seconds: the window shown, `to - from` = 24 h. */
  readonly from: number;
  readonly to: number;
  /**
   * Oldest first. All samples of the window when there are at most MAX_HISTORY_POINTS, else every k-th (the last of
   * each run of k consecutive samples, the newest always included): each point is one real sample, figures the API
   * answered at that moment, never an average.
   */
  readonly points: readonly MempoolSample[];
  /** Samples in the window (more than `points.length` when thinned). */
  readonly sampleCount: number;
}

/** The mempool's size over the last 24 hours, from the samples the indexer records (mempool-sampler.ts). */
export class MempoolHistoryService {
  private readonly cache = new Map<string, { at: number; value: Promise<MempoolHistory> }>();

  constructor(
    private readonly networks: NetworkRegistry,
    /** null: this process has no samples to read (the chart then says so). */
    private readonly store: MempoolSampleStore | null,
    /** UNIX seconds. */
    private readonly now: () => number,
    private readonly nowMs: () => number = Date.now,
  ) {}

  lastDay(network: string): Promise<MempoolHistory> {
    const id = this.networks.resolve(network).id;
    const hit = this.cache.get(id);
    const nowMs = this.nowMs();
    if (hit && nowMs - hit.at < CACHE_MS) return hit.value;
    const to = this.now();
    const from = to - HISTORY_SECONDS;
    const value = (this.store ? this.store.read(id, from, to) : Promise.resolve([])).then((samples) => ({ from, to, points: thin(samples, MAX_HISTORY_POINTS), sampleCount: samples.length }));
    this.cache.set(id, { at: nowMs, value });
    value.catch(() => this.cache.delete(id));
    return value;
  }
}

/** Every k-th sample counted back from the newest, k the smallest step that leaves at most `max`. */
export function thin<T>(samples: readonly T[], max: number): T[] {
  if (samples.length <= max) return [...samples];
  const step = Math.ceil(samples.length / max);
  const out: T[] = [];
  for (let i = samples.length - 1; i >= 0; i -= step) out.push(samples[i]!);
  return out.reverse();
}
