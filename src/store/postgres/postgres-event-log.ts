/**
 * PostgreSQL event log. The allocation's row lock is held until the append commits, so appends of several processes
 * commit in the order of their ids: a reader never sees id n + 1 before id n.
 */
import type pg from 'pg';
import type { NetworkId } from '../../core/domain/network.js';
import type { LoggedChannelEvent } from '../../core/store/event-log-store.js';
import { networkCode } from '../common/schema/network-codes.js';
import { ALLOCATE_IDS_SQL, eventLogRows, idRange, SqlEventLog } from '../common/events/sql-event-log.js';
import { numbered } from '../common/sql/sql-runner.js';
import { PostgresRunner } from './postgres-runner.js';

const INSERT =
  'INSERT INTO event_log (net, bucket, channel_key, event_id, event, payload, created_at) ' +
  'SELECT * FROM unnest($1::smallint[], $2::integer[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::bigint[])';

export class PostgresEventLog extends SqlEventLog {
  constructor(private readonly pool: pg.Pool) {
    super(new PostgresRunner(pool));
  }

  async append(network: NetworkId, events: readonly (readonly LoggedChannelEvent[])[], time: number): Promise<number[]> {
    if (events.length === 0) return [];
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const allocated = await client.query(numbered(ALLOCATE_IDS_SQL), [networkCode(network), events.length]);
      const last = Number((allocated.rows[0] as { last_id: string }).last_id);
      const rows = eventLogRows(network, events, last, time);
      await client.query(INSERT, [
        rows.map((r) => r.net), rows.map((r) => r.bucket), rows.map((r) => r.channelKey), rows.map((r) => r.eventId),
        rows.map((r) => r.event), rows.map((r) => r.payload), rows.map((r) => r.time),
      ]);
      await client.query('COMMIT');
      return idRange(last, events.length);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
