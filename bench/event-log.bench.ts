/**
 * The realtime event log's append and feed read as the log grows, SQLite (issue 33: the log was two thirds of a block's
 * catch-up time). Each "block" is one append of BENCH_EVENT_LOG_PER_BLOCK address events (balance_update rows as the
 * renderer logs a confirmed tx's: ~120 B with a `{"$txid"}` reference) to channels drawn from BENCH_EVENT_LOG_ADDRESSES
 * scripts, plus a block_update. Two layouts in one run, in files of their own, the same rows in the same order:
 *   - today's (schema 13, id buckets), through the store's own append and read;
 *   - the reference: schema 12's table keyed by (net, channel_key, event_id), written with its own INSERT.
 * Prints ms per append at the start and the end, and feed reads from id 0 at the end (an address; the blockchain channel,
 * one row per append).
 *   npm run bench:event-log
 * Settings (environment): BENCH_EVENT_LOG_BLOCKS (150), BENCH_EVENT_LOG_PER_BLOCK (5000), BENCH_EVENT_LOG_ADDRESSES
 * (200000), BENCH_EVENT_LOG_CACHE_MB (128, as `[store] sqlite_cache_mb`).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoggedChannelEvent } from '../src/core/store/event-log-store.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { openSqliteDatabase } from '../src/store/sqlite/connection/sqlite-binding.js';

const BLOCKS = Number(process.env['BENCH_EVENT_LOG_BLOCKS'] ?? 150);
const PER_BLOCK = Number(process.env['BENCH_EVENT_LOG_PER_BLOCK'] ?? 5000);
const ADDRESSES = Number(process.env['BENCH_EVENT_LOG_ADDRESSES'] ?? 200_000);
const CACHE_MB = Number(process.env['BENCH_EVENT_LOG_CACHE_MB'] ?? 128);
const T = 1_700_000_000;

/** A P2WPKH script in hex for address n (deterministic, so both layouts get the same keys). */
function scriptHex(n: number): string {
  return `0014${createHash('sha256').update(`address-${n}`).digest('hex').slice(0, 40)}`;
}

/** A deterministic walk over the address set: xorshift, the same sequence for both layouts. */
function* channels(): Generator<string> {
  let x = 0x9e3779b9;
  const keys = Array.from({ length: ADDRESSES }, (_, i) => scriptHex(i));
  for (;;) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    yield keys[(x >>> 0) % ADDRESSES]!;
  }
}

function blockEvents(walk: Generator<string>, height: number): LoggedChannelEvent[][] {
  const events: LoggedChannelEvent[][] = [[{ channelKey: 'blockchain', event: 'block_update', payload: `{"type":"block","value":{"block_no":${height}}}` }]];
  for (let i = 0; i < PER_BLOCK; i++) {
    const txid = createHash('sha256').update(`${height}:${i}`).digest('hex');
    events.push([{
      channelKey: walk.next().value as string, event: 'balance_update',
      payload: `{"type":"address","value":{"value_sent":"0.00000000","value_received":"0.01250000","balance_change":"0.01250000","tx":{"$txid":"${txid}"}}}`,
    }]);
  }
  return events;
}

interface Figures { readonly firstMs: number; readonly lastMs: number; readonly readMs: number; readonly readRows: number; readonly blocksMs: number }

function summarize(times: number[], readMs: number, readRows: number, blocksMs: number): Figures {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return { firstMs: mean(times.slice(0, 10)), lastMs: mean(times.slice(-20)), readMs, readRows, blocksMs };
}

async function bucketed(dir: string, probe: string): Promise<Figures> {
  const store = new SqliteStore({ path: join(dir, 'bucketed.db'), cacheMb: CACHE_MB });
  await store.migrate();
  const log = store.events();
  const walk = channels();
  const times: number[] = [];
  for (let h = 1; h <= BLOCKS; h++) {
    const events = blockEvents(walk, h);
    const started = performance.now();
    await log.append('BTC', events, T + h);
    times.push(performance.now() - started);
  }
  const started = performance.now();
  const page = await log.read('BTC', probe, 0, 1001);
  const readMs = performance.now() - started;
  const blocksStarted = performance.now();
  await log.read('BTC', 'blockchain', 0, 1001);
  const blocksMs = performance.now() - blocksStarted;
  await store.close();
  return summarize(times, readMs, page.events.length, blocksMs);
}

/** Schema 12's layout (the store migrated to version 12 only) and its INSERT, on the same engine build and settings. */
async function keyedByChannel(dir: string, probe: string): Promise<Figures> {
  const path = join(dir, 'by-channel.db');
  const store = new SqliteStore({ path, cacheMb: CACHE_MB });
  await store.migrate(12);
  await store.close();
  const db = openSqliteDatabase(path, { readonly: false });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`cache_size = -${CACHE_MB * 1024}`);
  const insert = db.prepare('INSERT INTO event_log (net, channel_key, event_id, event, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  const walk = channels();
  const times: number[] = [];
  let id = 0;
  for (let h = 1; h <= BLOCKS; h++) {
    const events = blockEvents(walk, h);
    const started = performance.now();
    db.transaction(() => {
      for (const channelEvents of events) {
        id += 1;
        for (const e of channelEvents) insert.run(1, e.channelKey, id, e.event, e.payload, T + h);
      }
    }).immediate();
    times.push(performance.now() - started);
  }
  const started = performance.now();
  const read = db.prepare('SELECT event_id, event, payload, created_at FROM event_log WHERE net = ? AND channel_key = ? AND event_id > ? ORDER BY event_id LIMIT ?');
  const rows = read.all(1, probe, 0, 1001);
  const readMs = performance.now() - started;
  const blocksStarted = performance.now();
  read.all(1, 'blockchain', 0, 1001);
  const blocksMs = performance.now() - blocksStarted;
  db.close();
  return summarize(times, readMs, rows.length, blocksMs);
}

const dir = mkdtempSync(join(tmpdir(), 'outpoint-event-log-bench-'));
try {
  // The busiest channel of the walk's first block: the read returns a full page from all over the log.
  const probe = scriptHex(0);
  console.log(`event log bench: ${BLOCKS} appends of ${PER_BLOCK.toLocaleString('en-US')} address events over ${ADDRESSES.toLocaleString('en-US')} addresses (${(BLOCKS * PER_BLOCK).toLocaleString('en-US')} rows), SQLite, cache ${CACHE_MB} MiB, node ${process.version}`);
  const reference = await keyedByChannel(dir, probe);
  const today = await bucketed(dir, probe);
  const line = (name: string, f: Figures) =>
    `  ${name.padEnd(34)} append: first 10 ${f.firstMs.toFixed(1).padStart(6)} ms, last 20 ${f.lastMs.toFixed(1).padStart(6)} ms; feed from id 0: an address ${f.readMs.toFixed(2)} ms (${f.readRows} rows), the blockchain channel ${f.blocksMs.toFixed(2)} ms`;
  console.log(line('keyed by channel (schema 12)', reference));
  console.log(line('id buckets (schema 13, today)', today));
  console.log(`  ratio (reference / today), last 20 appends: ${(reference.lastMs / today.lastMs).toFixed(2)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
