/** Mempool samples for both engines over a SqlRunner (docs/schema.md, version 12). */
import type { NetworkId } from '../../../core/domain/network.js';
import type { MempoolSample, MempoolSampleStore } from '../../../core/store/mempool-sample-store.js';
import { chainTables } from '../schema/chain-tables.js';
import { networkCode } from '../schema/network-codes.js';
import type { SqlRow, SqlRunner } from '../sql/sql-runner.js';

const COLUMNS = 'time, tx_count, bytes, vbytes, fees';

function sampleOf(r: SqlRow): MempoolSample {
  return { time: Number(r.time), txCount: Number(r.tx_count), bytes: Number(r.bytes), vbytes: Number(r.vbytes), fees: BigInt(String(r.fees)) };
}

export class SqlMempoolSamples implements MempoolSampleStore {
  constructor(private readonly db: SqlRunner) {}

  async sample(network: NetworkId, time: number): Promise<MempoolSample | null> {
    const t = chainTables(network);
    // The sums get_info's count and the projection's vbytes are made of (chain-read-plans.ts mempoolInfo: the row the
    // triggers keep, schema/mempool-stats.ts), in the insert itself: one snapshot, however busy the mempool.
    const rows = await this.db.all(
      `INSERT INTO mempool_samples (net, ${COLUMNS}) SELECT ?, ?, tx_count, bytes, vbytes, fees FROM ${t.mempoolStats} WHERE one = 0 ` +
        `ON CONFLICT (net, time) DO NOTHING RETURNING ${COLUMNS}`,
      [networkCode(network), time],
    );
    return rows[0] ? sampleOf(rows[0]) : null;
  }

  async read(network: NetworkId, from: number, to: number): Promise<MempoolSample[]> {
    const rows = await this.db.all(`SELECT ${COLUMNS} FROM mempool_samples WHERE net = ? AND time >= ? AND time <= ? ORDER BY time`, [networkCode(network), from, to]);
    return rows.map(sampleOf);
  }

  prune(network: NetworkId, before: number): Promise<number> {
    return this.db.run('DELETE FROM mempool_samples WHERE net = ? AND time < ?', [networkCode(network), before]);
  }
}
