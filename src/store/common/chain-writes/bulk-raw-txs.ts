/**
 * Raw transactions a bulk build reads when the store does not keep them (raw_txs = "node"): only the rare step that
 * re-keys outputs of colliding script keys needs any, and asks the node for exactly those (a few txs on a mainnet chain).
 */
import { StoreError } from '../../../core/domain/errors.js';
import type { RawTxLocation, RawTxSource } from '../../../core/sources/raw-txs.js';

/** How many txs one request to the source asks for (a page of locations; the source shares block fetches). */
const FETCH_PAGE = 500;

/** Raw bytes by tx id, from `source`; `locate` names each tx's txid, block and position. */
export async function fetchBulkRaws(
  ids: readonly number[],
  locate: (id: number) => RawTxLocation | Promise<RawTxLocation>,
  source: RawTxSource | undefined,
): Promise<Map<number, Uint8Array>> {
  const raws = new Map<number, Uint8Array>();
  if (ids.length === 0) return raws;
  if (!source) throw new StoreError(`bulk load: colliding script keys need the raw tx of id ${ids[0]}, which the store does not keep (raw_txs = "node") and no node was given`);
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  for (let i = 0; i < unique.length; i += FETCH_PAGE) {
    const page = unique.slice(i, i + FETCH_PAGE);
    const locations = await Promise.all(page.map((id) => locate(id)));
    const fetched = await source.rawTxs(locations);
    page.forEach((id, j) => raws.set(id, fetched[j]!));
  }
  return raws;
}
