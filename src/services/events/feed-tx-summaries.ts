/**
 * The catch-up feed's inputs and outputs of confirmed txs. The event log keeps a confirmed tx's address events with
 * `"tx": {"$txid": …}` only (the event catalogue's logged form, catalogue/event-catalogue.ts): such a tx stays in the index (a reorg keeps it
 * as orphaned), so the feed rebuilds what the live event showed from it, on the rare read instead of on every block.
 */
import { parseTransaction } from '../../chains/parsing.js';
import type { TxRecord } from '../../core/store/chain-reads.js';
import type { NetworkContext } from '../shared/network-registry.js';
import { rawTxsOf } from '../transactions/raw-tx-reader.js';
import { txSummary, type TxSummary } from './tx-summary.js';

/** Store lookups in flight at once: a page of 1,000 events may name 1,000 txs. */
const LOOKUPS_AT_ONCE = 16;

/** The `$txid` a logged `value.tx` stands for, or null when it holds the summary itself. */
export function loggedTxid(tx: unknown): string | null {
  const id = (tx as { $txid?: unknown } | null)?.$txid;
  return typeof tx === 'object' && tx !== null && typeof id === 'string' ? id : null;
}

/**
 * Each txid's summary, read from the index (raw bytes from the node with raw_txs = "node", in one request). A tx the
 * index no longer knows (its store was rebuilt since) gets its txid with no inputs or outputs, keeping the shape.
 */
export async function feedTxSummaries(ctx: NetworkContext, txids: readonly string[]): Promise<Map<string, TxSummary>> {
  const records: TxRecord[] = [];
  for (let at = 0; at < txids.length; at += LOOKUPS_AT_ONCE) {
    const found = await Promise.all(txids.slice(at, at + LOOKUPS_AT_ONCE).map((txid) => ctx.reader.getTransaction(txid)));
    for (const record of found) if (record) records.push(record);
  }
  const raws = await rawTxsOf(ctx, records);
  const summaries = new Map<string, TxSummary>();
  records.forEach((record, i) => {
    const tx = parseTransaction(raws[i]!, { mweb: ctx.params.features.mweb });
    summaries.set(record.txid, txSummary(tx, ctx.params, record.prevouts));
  });
  for (const txid of txids) if (!summaries.has(txid)) summaries.set(txid, { txid, inputs: [], outputs: [] });
  return summaries;
}
