/**
 * A scripthash's history as the Electrum protocol orders it, and its status (protocol-basics.rst, "Status"):
 * confirmed txs by (height, position in block); then mempool txs by (-height, txid), height 0 when every input is
 * confirmed and -1 when one spends an unconfirmed output (the 1.6 canonical order; earlier versions left it
 * undefined, so every version gets it). The status is sha256 over "txid:height:" of each, in that order, as lower-case
 * hex; null for no history at all.
 */
import { createHash } from 'node:crypto';
import type { ScriptHashHistory, ScriptHashMempoolTx } from '../../core/store/script-hash-reads.js';

/** One history item as get_history and get_mempool answer it (`fee` on mempool items only). */
export interface ElectrumHistoryItem {
  readonly tx_hash: string;
  readonly height: number;
  readonly fee?: bigint;
}

/** Mempool txs in canonical order: height 0 before -1, then by txid. */
export function mempoolItems(mempool: readonly ScriptHashMempoolTx[]): ElectrumHistoryItem[] {
  return mempool
    .map((m) => ({ tx_hash: m.txid, height: m.unconfirmedParent ? -1 : 0, fee: m.fee }))
    .sort((a, b) => b.height - a.height || (a.tx_hash < b.tx_hash ? -1 : a.tx_hash > b.tx_hash ? 1 : 0));
}

export function historyItems(history: ScriptHashHistory): ElectrumHistoryItem[] {
  const items: ElectrumHistoryItem[] = history.confirmed.map((c) => ({ tx_hash: c.txid, height: c.height }));
  for (const m of mempoolItems(history.mempool)) items.push(m);
  return items;
}

export function statusOf(items: readonly ElectrumHistoryItem[]): string | null {
  if (items.length === 0) return null;
  const hash = createHash('sha256');
  for (const item of items) hash.update(`${item.tx_hash}:${item.height}:`);
  return hash.digest('hex');
}
