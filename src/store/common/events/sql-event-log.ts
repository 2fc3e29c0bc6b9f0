/**
 * The realtime event log's reads and pruning for both engines (over a SqlRunner); each engine adds `append`, which
 * allocates ids and writes rows in one transaction with a RETURNING the shared runner does not offer.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { NetworkId } from '../../../core/domain/network.js';
import type { EventLogPage, EventLogStore, LoggedChannelEvent } from '../../../core/store/event-log-store.js';
import { networkCode } from '../schema/network-codes.js';
import type { SqlRunner } from '../sql/sql-runner.js';

/**
 * Rows are keyed by (net, bucket, channel_key, event_id) with bucket = event_id / BUCKET_IDS (schema version 13), so an
 * append writes into the newest bucket instead of thousands of random places of the whole log. Fixed by the schema:
 * changing it needs a migration that re-buckets every row.
 */
export const BUCKET_IDS = 4096;
/** The bucket of shared bodies (`tx:<txid>`) logged before they had buckets of their own by id: still read. */
export const SHARED_BUCKET = -1;

/**
 * The bucket of a shared body logged under `eventId`: one per id bucket, below -1 (-2 for ids 0-4095, -3 for the next
 * ...). In the one bucket -1 every mempool tx's body went to a random place of a B-tree of all of them (keyed by txid):
 * at 100,000 txs an append of 250 took 1.1-2.6x as long as with the bodies beside their events, growing with the log
 * (`npm run bench:event-log-mempool`, docs/benchmarks.md "The tip at mainnet size"), and appends were the largest
 * part of a busy mempool's ingest.
 */
export function sharedBucketOf(eventId: number): number {
  return -2 - bucketOf(eventId);
}
/**
 * Ids deleted per prune statement, the event loop turning between statements. A mempool tx's event has a row per
 * channel it names plus its shared body: on the 2M-tx bench index a statement of 2,000 ids took 400-900 ms and held
 * the event loop that long once a minute, which made realtime's p99 (docs/benchmarks.md, "Mempool at mainnet rates").
 * 100 ids keep a statement to tens of milliseconds; the log's growth (~20 ids a second at 10 tx/s) is far from that
 * rate of deletion.
 */
export const PRUNE_IDS_PER_STATEMENT = 100;
/** Buckets one read statement seeks (each an index seek for the channel): a 24-hour log of a busy chain has hundreds. */
const BUCKETS_PER_READ = 64;

export function bucketOf(eventId: number): number {
  return Math.floor(eventId / BUCKET_IDS);
}

/** Allocates `count` ids for a network: the statement both engines run first in an append's transaction (returns the new last id). */
export const ALLOCATE_IDS_SQL =
  'INSERT INTO event_log_state (net, last_id) VALUES (?, ?) ON CONFLICT (net) DO UPDATE SET last_id = event_log_state.last_id + excluded.last_id RETURNING last_id';

/**
 * One row per channel event: the ids run from `last - events.length + 1` to `last`, in the order given. A shared body
 * goes once per id bucket of the events pointing to it (once, unless the append crosses into the next bucket), under
 * the last of them in that bucket: reading finds it in the shared bucket of the event it reads.
 */
export function eventLogRows(network: NetworkId, events: readonly (readonly LoggedChannelEvent[])[], last: number, time: number): EventLogRow[] {
  const net = networkCode(network);
  const first = last - events.length + 1;
  const rows: EventLogRow[] = [];
  // Shared bodies: one row per key and id bucket, under the last event that carries it (a later event's id overwrites).
  const shared = new Map<string, EventLogRow>();
  events.forEach((channelEvents, i) => {
    // A domain event names a channel once; a repeat (two spellings of one script in a double spend) would break the key.
    const seen = new Set<string>();
    for (const e of channelEvents) {
      const eventId = first + i;
      if (e.shared) {
        const bucket = sharedBucketOf(eventId);
        shared.set(`${bucket} ${e.channelKey}`, { net, bucket, channelKey: e.channelKey, eventId, event: e.event, payload: e.payload, time });
        continue;
      }
      const row = { net, bucket: bucketOf(eventId), channelKey: e.channelKey, eventId, event: e.event, payload: e.payload, time };
      if (seen.has(e.channelKey)) continue;
      seen.add(e.channelKey);
      rows.push(row);
    }
  });
  return [...rows, ...shared.values()];
}

/** `{"$ref":"KEY"}` in a logged payload: the shared body with channel key KEY goes there on reading. */
const REF = /\{"\$ref":"([^"\\]+)"\}/g;

export interface EventLogRow {
  readonly net: number;
  readonly bucket: number;
  readonly channelKey: string;
  readonly eventId: number;
  readonly event: string;
  readonly payload: string;
  readonly time: number;
}

export function idRange(last: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

export abstract class SqlEventLog implements EventLogStore {
  constructor(protected readonly db: SqlRunner) {}

  abstract append(network: NetworkId, events: readonly (readonly LoggedChannelEvent[])[], time: number): Promise<number[]>;

  async read(network: NetworkId, channelKey: string, afterId: number, limit: number): Promise<EventLogPage> {
    const net = networkCode(network);
    const [state] = await this.db.all('SELECT last_id, pruned_through FROM event_log_state WHERE net = ?', [net]);
    const lastId = state ? Number(state.last_id) : 0;
    const prunedThrough = state ? Number(state.pruned_through) : 0;
    // The channel's rows sit in every bucket from the cursor's (or the oldest kept) to the newest: seek it in each, a
    // group of buckets per statement, oldest first, until the page is full. Ordering by bucket first (ids grow with
    // buckets) lets SQLite walk the index in order and stop at the limit instead of sorting a busy channel's rows.
    const rows: Record<string, unknown>[] = [];
    const lastBucket = bucketOf(lastId);
    for (let bucket = bucketOf(Math.max(afterId, prunedThrough) + 1); bucket <= lastBucket && rows.length < limit; bucket += BUCKETS_PER_READ) {
      const buckets = Array.from({ length: Math.min(BUCKETS_PER_READ, lastBucket - bucket + 1) }, (_, i) => bucket + i);
      rows.push(...(await this.db.all(
        `SELECT event_id, event, payload, created_at FROM event_log WHERE net = ? AND bucket IN (${buckets.map(() => '?').join(', ')}) AND channel_key = ? AND event_id > ? ORDER BY bucket, event_id LIMIT ?`,
        [net, ...buckets, channelKey, afterId, limit - rows.length],
      )));
    }
    const bodies = await this.sharedBodies(net, rows.map((r) => ({ eventId: Number(r.event_id), payload: String(r.payload) })));
    return {
      events: rows.map((r) => ({
        eventId: Number(r.event_id), event: String(r.event), time: Number(r.created_at),
        payload: bodies.size === 0 ? String(r.payload) : String(r.payload).replace(REF, (ref, key: string) => bodies.get(key) ?? ref),
      })),
      prunedThrough,
      lastEventId: lastId,
    };
  }

  /**
   * The bodies the payloads point to, read in one statement. A key may have several rows (a tx logged when it entered
   * the mempool and again when confirmed): they hold the same text, any will do. A body is in the shared bucket of
   * every event pointing to it (eventLogRows), or in bucket -1 when logged before shared buckets by id.
   */
  private async sharedBodies(net: number, rows: readonly { eventId: number; payload: string }[]): Promise<Map<string, string>> {
    const keys = new Set<string>();
    const buckets = new Set<number>([SHARED_BUCKET]);
    for (const { eventId, payload } of rows) {
      for (const match of payload.matchAll(REF)) {
        keys.add(match[1]!);
        buckets.add(sharedBucketOf(eventId));
      }
    }
    const bodies = new Map<string, string>();
    if (keys.size === 0) return bodies;
    const list = [...keys];
    const found = await this.db.all(
      `SELECT channel_key, payload FROM event_log WHERE net = ? AND bucket IN (${[...buckets].map(() => '?').join(', ')}) AND channel_key IN (${list.map(() => '?').join(', ')})`,
      [net, ...buckets, ...list],
    );
    for (const row of found) bodies.set(String(row.channel_key), String(row.payload));
    return bodies;
  }

  async prune(network: NetworkId, before: number, keepLast: number): Promise<number> {
    const net = networkCode(network);
    const [state] = await this.db.all('SELECT last_id, pruned_through FROM event_log_state WHERE net = ?', [net]);
    if (!state) return 0;
    const last = Number(state.last_id);
    // Ids grow with time, so the first row young enough bounds what is old; the walk covers only rows about to go.
    const [fresh] = await this.db.all('SELECT event_id FROM event_log WHERE net = ? AND created_at >= ? ORDER BY event_id LIMIT 1', [net, before]);
    const byAge = fresh ? Number(fresh.event_id) - 1 : last;
    const cutoff = Math.max(byAge, last - keepLast);
    let through = Number(state.pruned_through);
    let deleted = 0;
    // A range of ids per statement, the event loop turning between them: a SQLite statement holds it while it runs,
    // and a whole 20,000-tx mempool's events leaving in one DELETE held it for 5.4 s (docs/benchmarks.md, "Mempool at
    // mainnet rates"). The state moves with each range, so the feed's 410 is right at every step.
    while (through < cutoff) {
      if (deleted > 0) await yieldToEventLoop();
      const upTo = Math.min(cutoff, through + PRUNE_IDS_PER_STATEMENT);
      deleted += await this.db.run('DELETE FROM event_log WHERE net = ? AND event_id > ? AND event_id <= ?', [net, through, upTo]);
      await this.db.run('UPDATE event_log_state SET pruned_through = ? WHERE net = ? AND pruned_through < ?', [upTo, net, upTo]);
      through = upTo;
    }
    return deleted;
  }
}
