/**
 * Fee figures of the Electrum protocol: the node's estimate per target and mode (kept until the next block, as
 * protocol-methods.rst asks: a new header invalidates them before it is announced), its relay fee and mempool fee
 * floors (kept a few seconds: they change with the node's configuration and mempool, and clients poll them), and the
 * fee histogram of the index's mempool (kept 10 s, as Fulcrum refreshes its own).
 */
import type { ElectrumNodeSource } from '../../core/sources/electrum-node.js';
import type { NetworkReader } from '../../core/store/network-store.js';
import { CappedMap } from '../shared/capped-map.js';
import { compactFeeHistogram } from './electrum-fee-histogram.js';
import { ElectrumRequestError } from './electrum-request-error.js';

const FLOORS_MS = 5_000;
const HISTOGRAM_MS = 10_000;

/** A value and when it was made (ms), shared by concurrent askers while it is being made. */
interface Kept<T> {
  readonly at: number;
  readonly value: Promise<T>;
}

export class ElectrumFeeService {
  /** (target, mode) pairs: targets 0-1008 and a few modes, bounded anyway. */
  private readonly estimates = new CappedMap<string, Kept<number>>(256);
  private relay: Kept<number> | null = null;
  private floors: Kept<Record<string, number | boolean>> | null = null;
  private histogramKept: Kept<[number, number][]> | null = null;

  constructor(
    private readonly node: ElectrumNodeSource | null,
    /** Gated. */
    private readonly reader: NetworkReader,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new block: estimates are made again. */
  onBlock(): void {
    this.estimates.clear();
  }

  private source(): ElectrumNodeSource {
    if (!this.node) throw new ElectrumRequestError('no node is configured for fee figures');
    return this.node;
  }

  private kept<T>(current: Kept<T> | null | undefined, maxAgeMs: number, make: () => Promise<T>): Kept<T> {
    if (current && this.now() - current.at < maxAgeMs) return current;
    const value = make();
    return { at: this.now(), value };
  }

  /** Coins per 1,000 vbytes, or -1 when the node has no estimate. */
  estimateFee(target: number, mode: string | null): Promise<number> {
    const key = `${target}:${mode ?? ''}`;
    const entry = this.kept(this.estimates.get(key), Infinity, () => this.source().estimateFee(target, mode));
    this.estimates.set(key, entry);
    // A failed ask is not kept.
    entry.value.catch(() => this.estimates.delete(key));
    return entry.value;
  }

  relayFee(): Promise<number> {
    this.relay = this.kept(this.relay, FLOORS_MS, () => this.source().relayFee());
    const kept = this.relay;
    kept.value.catch(() => { if (this.relay === kept) this.relay = null; });
    return kept.value;
  }

  mempoolFees(): Promise<Record<string, number | boolean>> {
    this.floors = this.kept(this.floors, FLOORS_MS, () => this.source().mempoolFees());
    const kept = this.floors;
    kept.value.catch(() => { if (this.floors === kept) this.floors = null; });
    return kept.value;
  }

  histogram(): Promise<[number, number][]> {
    this.histogramKept = this.kept(this.histogramKept, HISTOGRAM_MS, async () => compactFeeHistogram(await this.reader.getMempoolEntries()));
    const kept = this.histogramKept;
    kept.value.catch(() => { if (this.histogramKept === kept) this.histogramKept = null; });
    return kept.value;
  }
}
