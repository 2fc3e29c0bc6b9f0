/**
 * The event log's append for a busy mempool (issue 47), SQLite: appends of BENCH_EVENT_LOG_MEMPOOL_PER_APPEND (250, the
 * logged bus's EVENTS_PER_APPEND) mempool txs, each logged as the catalogue logs it: a tx_update on the blockchain
 * channel and a balance_update on the address it pays, both pointing to the tx's shared body (`{"$ref":"tx:<txid>"}`).
 * Two layouts of the same rows in one run, in files of their own:
 *   - the reference: every shared body in bucket -1 (as until issue 47), keyed by txid: random places of one B-tree;
 *   - today's, through the store's own append: a body in the shared bucket of its event's id (sharedBucketOf).
 * Prints ms per append at the start and at the end of BENCH_EVENT_LOG_MEMPOOL_TXS (100000) txs, and a feed read.
 *   npm run bench:event-log-mempool
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoggedChannelEvent } from '../src/core/store/event-log-store.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { bucketOf, SHARED_BUCKET } from '../src/store/common/events/sql-event-log.js';
import { openSqliteDatabase } from '../src/store/sqlite/connection/sqlite-binding.js';

const TXS = Number(process.env['BENCH_EVENT_LOG_MEMPOOL_TXS'] ?? 100_000);
const PER_APPEND = Number(process.env['BENCH_EVENT_LOG_MEMPOOL_PER_APPEND'] ?? 250);
const CACHE_MB = 128;
const T = 1_700_000_000;
const hex = (seed: string, chars: number) => createHash('sha256').update(seed).digest('hex').slice(0, chars);

/** One mempool tx as the catalogue logs it: its two channel events and its shared body (~400 B: 1 input, 2 outputs). */
function txEvents(n: number): LoggedChannelEvent[] {
  const txid = hex(`tx-${n}`, 64);
  const ref = `{"$ref":"tx:${txid}"}`;
  const io = (k: string) => `{"address":"bcrt1q${hex(`${k}-${n}`, 38)}","value":"0.01250000"}`;
  return [
    { channelKey: 'blockchain', event: 'tx_update', payload: `{"type":"tx","value":{"txid":"${txid}","fee":"0.00000225","tx":${ref}}}` },
    { channelKey: `0014${hex(`address-${n % 20_000}`, 40)}`, event: 'balance_update', payload: `{"type":"address","value":{"balance_change":"0.01250000","tx":${ref}}}` },
    { channelKey: `tx:${txid}`, event: 'tx_summary', shared: true, payload: `{"txid":"${txid}","inputs":[${io('in')}],"outputs":[${io('a')},${io('b')}]}` },
  ];
}

interface Figures { readonly firstMs: number; readonly lastMs: number; readonly readMs: number }
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function run(path: string, reference: boolean): Promise<Figures> {
  const store = new SqliteStore({ path, cacheMb: CACHE_MB });
  await store.migrate();
  const log = store.events();
  // The reference writes the same rows with the shared bodies in bucket -1, on a connection of its own.
  const db = reference ? openSqliteDatabase(path, { readonly: false }) : null;
  db?.pragma('synchronous = NORMAL');
  const insert = db?.prepare('INSERT INTO event_log (net, bucket, channel_key, event_id, event, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const times: number[] = [];
  let id = 0;
  for (let n = 0; n < TXS; n += PER_APPEND) {
    const events = Array.from({ length: Math.min(PER_APPEND, TXS - n) }, (_, i) => txEvents(n + i));
    const started = performance.now();
    if (db && insert) {
      db.transaction(() => {
        for (const tx of events) {
          id += 1;
          for (const e of tx) insert.run(2, e.shared ? SHARED_BUCKET : bucketOf(id), e.channelKey, id, e.event, e.payload, T);
        }
      }).immediate();
    } else await log.append('BTC', events, T);
    times.push(performance.now() - started);
  }
  db?.close();
  const started = performance.now();
  if (!reference) await log.read('BTC', `0014${hex('address-7', 40)}`, 0, 1000);
  const readMs = performance.now() - started;
  await store.close();
  return { firstMs: mean(times.slice(0, 20)), lastMs: mean(times.slice(-40)), readMs };
}

const dir = mkdtempSync(join(tmpdir(), 'outpoint-event-log-mempool-bench-'));
try {
  console.log(`event log, mempool appends: ${TXS.toLocaleString('en-US')} txs in appends of ${PER_APPEND} (3 rows each: tx_update, balance_update, shared body), SQLite, cache ${CACHE_MB} MiB, node ${process.version}`);
  const reference = await run(join(dir, 'reference.db'), true);
  const today = await run(join(dir, 'today.db'), false);
  const line = (name: string, f: Figures) => `  ${name.padEnd(40)} append: first 20 ${f.firstMs.toFixed(1).padStart(6)} ms, last 40 ${f.lastMs.toFixed(1).padStart(6)} ms`;
  console.log(line('shared bodies in bucket -1 (reference)', reference));
  console.log(line('shared bodies by id bucket (today)', today) + `; an address's feed page (1,000 events) ${today.readMs.toFixed(1)} ms`);
  console.log(`  ratio (reference / today), last 40 appends: ${(reference.lastMs / today.lastMs).toFixed(2)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
