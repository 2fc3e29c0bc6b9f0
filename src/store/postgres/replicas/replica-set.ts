/**
 * The streaming replicas of `[store] read_urls` (docs/operations.md, "Read replicas"): a read pool per replica, and a
 * check every `checkMs` of where each one stands against the primary. Checks go through connections of their own
 * (one per server, short timeouts), so a busy read pool never delays them and a hung server counts as down.
 * A replica is in use while it answers, is a hot standby (pg_is_in_recovery) and lags at most `maxLagMs`
 * (replica-lag.ts). Requests pick among those in turn (load spread over the replicas); none in use: the primary.
 */
import pg from 'pg';
import type { ReplicaState } from '../../../core/store/read-replicas.js';
import { translateUnavailable } from '../connection/postgres-unavailable.js';
import { LagClock, parseLsn } from './replica-lag.js';

export interface ReplicaSetOptions {
  readonly primaryUrl: string;
  readonly urls: readonly string[];
  readonly maxLagMs: number;
  /** Between two checks (default: a quarter of maxLagMs, between 50 and 500 ms). */
  readonly checkMs?: number;
  /** A check unanswered this long counts as down (default 2000 ms). */
  readonly timeoutMs?: number;
  /** Read connections per replica (default 10, as the primary's pool). */
  readonly maxConnections?: number;
}

interface Replica {
  readonly name: string;
  readonly pool: pg.Pool;
  readonly probe: pg.Pool;
  state: ReplicaState;
}

/** host:port/database of a URL, for logs, metrics and /ready (never its credentials). */
export function replicaName(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
}

function probePool(url: string, timeoutMs: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url, max: 1, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs, idleTimeoutMillis: 0, application_name: 'outpoint replica check',
  });
  pool.on('error', () => undefined);
  return pool;
}

export class ReplicaSet {
  readonly maxLagMs: number;
  private readonly replicas: Replica[];
  private readonly primaryProbe: pg.Pool;
  private readonly clock: LagClock;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private turn = 0;
  private closed = false;

  constructor(options: ReplicaSetOptions) {
    this.maxLagMs = options.maxLagMs;
    const timeoutMs = options.timeoutMs ?? 2_000;
    this.clock = new LagClock(Math.max(options.maxLagMs * 2, 60_000));
    this.primaryProbe = probePool(options.primaryUrl, timeoutMs);
    this.replicas = options.urls.map((url) => {
      // Named, so an operator (and the replica test) sees the API's reads in the replica's pg_stat_activity.
      const pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10, application_name: 'outpoint api reads' });
      pool.on('error', () => undefined);
      translateUnavailable(pool);
      const name = replicaName(url);
      return { name, pool, probe: probePool(url, timeoutMs), state: { name, up: false, lagMs: null, inUse: false, reason: 'not checked yet', reasonCode: 'not_checked' } };
    });
    const checkMs = options.checkMs ?? Math.min(500, Math.max(50, Math.floor(options.maxLagMs / 4)));
    this.timer = setInterval(() => void this.check(), checkMs);
    this.timer.unref();
    void this.check();
  }

  /** Read pools, in read_urls order. */
  get pools(): readonly pg.Pool[] {
    return this.replicas.map((r) => r.pool);
  }

  states(): ReplicaState[] {
    return this.replicas.map((r) => r.state);
  }

  /** The replica a new request reads from (in turn among those in use), or null: read the primary. */
  pick(): number | null {
    const n = this.replicas.length;
    for (let i = 0; i < n; i++) {
      const index = (this.turn + i) % n;
      if (this.replicas[index]!.state.inUse) {
        this.turn = index + 1;
        return index;
      }
    }
    return null;
  }

  /** One round of checks (tests await it); a round still running is not started twice. */
  check(): Promise<void> {
    this.checking ??= this.checkAll().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async checkAll(): Promise<void> {
    const [primary, ...replicas] = await Promise.all([
      this.primaryProbe.query('SELECT pg_current_wal_lsn()::text AS lsn').then((r) => r.rows[0] as { lsn: string }, () => null),
      ...this.replicas.map((r) =>
        r.probe.query('SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replay')
          .then((res) => ({ row: res.rows[0] as { standby: boolean; replay: string | null }, error: null }), (error: Error) => ({ row: null, error: error.message })),
      ),
    ]);
    if (this.closed) return;
    const now = Date.now();
    if (primary) this.clock.observe(parseLsn(primary.lsn), now);
    let freshest: bigint | null = null;
    for (const r of replicas) {
      if (!r.row?.standby || !r.row.replay) continue;
      const replay = parseLsn(r.row.replay);
      this.clock.observe(replay, now);
      if (freshest === null || replay > freshest) freshest = replay;
    }
    // Primary down: what it wrote that no replica received cannot be read anywhere (replica-lag.ts).
    const reachable = primary ? null : freshest;
    this.replicas.forEach((replica, i) => {
      const { row, error } = replicas[i]!;
      const name = replica.name;
      if (!row) {
        replica.state = { name, up: false, lagMs: null, inUse: false, reason: `not answering: ${error}`, reasonCode: 'not_answering' };
      } else if (!row.standby || row.replay === null) {
        // A server that is not replaying a primary's WAL may hold anything: never read from it.
        replica.state = { name, up: true, lagMs: null, inUse: false, reason: 'not a hot standby (pg_is_in_recovery() is false)', reasonCode: 'not_standby' };
      } else {
        const lagMs = this.clock.lagMs(parseLsn(row.replay), now, reachable);
        const inUse = lagMs <= this.maxLagMs;
        replica.state = { name, up: true, lagMs, inUse, reason: inUse ? null : `lagging ${lagMs} ms (at most ${this.maxLagMs} allowed)`, reasonCode: inUse ? null : 'lagging' };
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checking?.catch(() => undefined);
    await Promise.all([this.primaryProbe.end(), ...this.replicas.flatMap((r) => [r.pool.end(), r.probe.end()])]);
  }
}
