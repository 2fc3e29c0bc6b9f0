import type { Sats } from '../../core/domain/money.js';
import type { BlockRecord, TxRecord } from '../../core/store/chain-reads.js';
import { feeHistogram, type FeeHistogramBand } from '../network/fee-histogram.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';

/** A block's fee rates (base units per vbyte, each tx at its own rate; the coinbase and HogEx pay none). */
export interface BlockFeeRates {
  /** Txs that paid a fee the index knows. */
  readonly txs: number;
  readonly min: number;
  readonly median: number;
  readonly max: number;
  readonly histogram: readonly FeeHistogramBand[];
}

const READ_BATCH = 64;
/**
 * Blocks do not change: their figures (a few hundred bytes each) are kept for this many recently shown blocks, so a
 * block page costs one read of every tx record of its block only the first time it is shown (bench:web rotates over
 * 434 blocks: 90 block pages a second when the cache held 200, about 500 when it holds them all).
 */
const CACHED_BLOCKS = 2_000;

const round2 = (n: number): number => Math.round(n * 100) / 100;

export function feeRatesOf(records: readonly Pick<TxRecord, 'fee' | 'vsize'>[]): BlockFeeRates | null {
  const paying = records.filter((r): r is { fee: Sats; vsize: number } => r.fee !== null && r.fee > 0n && r.vsize > 0);
  if (paying.length === 0) return null;
  const rates = paying.map((r) => Number(r.fee) / r.vsize).sort((a, b) => a - b);
  const mid = Math.floor(rates.length / 2);
  const median = rates.length % 2 === 1 ? rates[mid]! : (rates[mid - 1]! + rates[mid]!) / 2;
  return { txs: rates.length, min: round2(rates[0]!), median: round2(median), max: round2(rates[rates.length - 1]!), histogram: feeHistogram(paying) };
}

/**
 * The fee-rate span, median and histogram of a block, from every tx record of the block (read in batches), kept per
 * block hash for the last CACHED_BLOCKS blocks shown (a block page is read again and again, its figures never change;
 * a reorganisation gives the replacing block another hash).
 */
export class BlockFeeRateService {
  private readonly cache = new Map<string, Promise<BlockFeeRates | null>>();

  constructor(private readonly networks: NetworkRegistry) {}

  ratesOf(network: string, block: BlockRecord): Promise<BlockFeeRates | null> {
    const ctx = this.networks.resolve(network);
    const key = `${ctx.id}:${block.hash}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const value = this.compute(ctx, block);
    this.cache.set(key, value);
    value.catch(() => this.cache.get(key) === value && this.cache.delete(key));
    if (this.cache.size > CACHED_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
    return value;
  }

  private async compute(ctx: NetworkContext, block: BlockRecord): Promise<BlockFeeRates | null> {
    const records: TxRecord[] = [];
    for (let i = 0; i < block.txids.length; i += READ_BATCH) {
      const batch = await Promise.all(block.txids.slice(i, i + READ_BATCH).map((txid) => ctx.reader.getTransaction(txid)));
      for (const r of batch) if (r) records.push(r);
    }
    return feeRatesOf(records);
  }
}
