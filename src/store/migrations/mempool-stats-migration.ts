/**
 * Schema version 14, the mempool at mainnet size (docs/schema.md, "Mempool stats"): each network's live mempool count
 * and sums in a row kept by triggers, initialised from the mempool as it is, so get_info reads one row instead of
 * summing the whole table; and the mempool's indexes by script with the value in them, so a balance sums a script's
 * mempool rows from the index alone.
 */
import { NETWORK_IDS } from '../../core/domain/network.js';
import { chainTables, mempoolScriptIndexes, type Engine } from '../common/schema/chain-tables.js';
import { mempoolStatsSql } from '../common/schema/mempool-stats.js';

export function mempoolStatsMigration(engine: Engine): string {
  return NETWORK_IDS.map((id) => {
    const t = chainTables(id);
    const indexes = [`DROP INDEX ${t.mempoolOutputs}_by_script`, `DROP INDEX ${t.mempoolSpends}_by_script`, ...mempoolScriptIndexes(t)];
    return `${indexes.map((sql) => `${sql};`).join('\n')}\n${mempoolStatsSql(engine, id)}`;
  }).join('\n');
}
