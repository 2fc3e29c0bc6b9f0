/**
 * The one way services get a transaction's raw bytes: the stored copy when the store has one (mempool txs always, and
 * confirmed ones with raw_txs = "store"), else the node through the network's RawTxSource (raw_txs = "node"), which
 * rejects with RawTxUnavailableError (503 with Retry-After) while the node cannot give them.
 */
import { RawTxUnavailableError } from '../../core/domain/errors.js';
import type { RawTxLocation } from '../../core/sources/raw-txs.js';
import type { TxRecord } from '../../core/store/chain-reads.js';
import type { NetworkContext } from '../shared/network-registry.js';

/** Retry-After when the store has no raw bytes and no node is configured to read them from (an operator must act). */
const NO_SOURCE_RETRY_SECONDS = 60;

/** Raw bytes of each record, in order; one request to the node for all those the store does not keep. */
export async function rawTxsOf(ctx: NetworkContext, records: readonly TxRecord[]): Promise<Uint8Array[]> {
  const missing: { index: number; location: RawTxLocation }[] = [];
  records.forEach((r, index) => {
    if (r.raw !== null) return;
    if (r.blockHash === null || r.position === null) throw new RawTxUnavailableError(`transaction ${r.txid} has no raw bytes stored and no block`, NO_SOURCE_RETRY_SECONDS);
    missing.push({ index, location: { txid: r.txid, blockHash: r.blockHash, position: r.position } });
  });
  const out = records.map((r) => r.raw);
  if (missing.length > 0) {
    if (!ctx.rawTxs) throw new RawTxUnavailableError(`raw transactions of ${ctx.id} are kept by the node, which is not configured here`, NO_SOURCE_RETRY_SECONDS);
    const fetched = await ctx.rawTxs.rawTxs(missing.map((m) => m.location));
    missing.forEach((m, i) => (out[m.index] = fetched[i]!));
  }
  return out as Uint8Array[];
}

export async function rawTxOf(ctx: NetworkContext, record: TxRecord): Promise<Uint8Array> {
  return record.raw ?? (await rawTxsOf(ctx, [record]))[0]!;
}
