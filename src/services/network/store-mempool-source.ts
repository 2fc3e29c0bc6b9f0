import type { MempoolSnapshot, MempoolSource } from '../../core/sources/mempool-source.js';
import type { NetworkReader } from '../../core/store/network-store.js';

/** Core's default minimum relay fee: 1 base unit per vbyte (1,000 per kvB). */
const DEFAULT_MIN_FEE_RATE = 1;

/**
 * The index's own mempool as a projection source, for networks without a node source (API-only tests, tools).
 * It knows fees and sizes but not in-mempool dependencies, so packages are single txs.
 */
export class StoreMempoolSource implements MempoolSource {
  constructor(private readonly reader: NetworkReader) {}

  async snapshot(): Promise<MempoolSnapshot> {
    const entries = await this.reader.getMempoolEntries();
    return {
      entries: entries.map((e) => ({ txid: e.txid, fee: e.fee, vsize: e.vsize, weight: e.weight, size: e.size, depends: [], seenAt: e.seenAt })),
      minFeeRate: DEFAULT_MIN_FEE_RATE,
      takenAt: Math.floor(Date.now() / 1000),
    };
  }
}
