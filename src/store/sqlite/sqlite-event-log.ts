/** SQLite event log: an append is one IMMEDIATE transaction, so two processes on one file allocate ids in turn. */
import type { NetworkId } from '../../core/domain/network.js';
import type { LoggedChannelEvent } from '../../core/store/event-log-store.js';
import { networkCode } from '../common/schema/network-codes.js';
import { ALLOCATE_IDS_SQL, eventLogRows, idRange, SqlEventLog } from '../common/events/sql-event-log.js';
import type { Statements } from './connection/sqlite-statements.js';
import { SqliteRunner } from './sqlite-runner.js';

const INSERT = 'INSERT INTO event_log (net, bucket, channel_key, event_id, event, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)';

export class SqliteEventLog extends SqlEventLog {
  constructor(private readonly st: Statements) {
    super(new SqliteRunner(st));
  }

  async append(network: NetworkId, events: readonly (readonly LoggedChannelEvent[])[], time: number): Promise<number[]> {
    if (events.length === 0) return [];
    return this.st.db.transaction((): number[] => {
      const { last_id: last } = this.st.get(ALLOCATE_IDS_SQL).get(networkCode(network), events.length) as { last_id: bigint | number };
      const insert = this.st.get(INSERT);
      for (const r of eventLogRows(network, events, Number(last), time)) insert.run(r.net, r.bucket, r.channelKey, r.eventId, r.event, r.payload, r.time);
      return idRange(Number(last), events.length);
    }).immediate();
  }
}
