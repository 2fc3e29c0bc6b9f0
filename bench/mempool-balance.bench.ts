/**
 * A balance's mempool part at hot addresses (issue 47), SQLite: BENCH_MEMPOOL_BALANCE_TXS (100000) mempool txs, each
 * paying one of 64 hot addresses (~1,560 mempool txs each, as in bench:mempool-node) and change to a fresh script,
 * and spending a coin of a fresh script: the store's own tables (migrated), its own statement (mempoolSumsSql), with
 * the mempool tx count (what the explorer's address page and v3 show), without it (v2 balance, received, spent),
 * and without it summed whole (SumForm 'whole', what the SQLite reader asks first) against split in two halves.
 * Prints µs per read, three rounds, and their ratios.
 *   npm run bench:mempool-balance
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainTables } from '../src/store/common/schema/chain-tables.js';
import { mempoolSumsSql } from '../src/store/common/chain-reads/history-assembly.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { openSqliteDatabase } from '../src/store/sqlite/connection/sqlite-binding.js';

const TXS = Number(process.env['BENCH_MEMPOOL_BALANCE_TXS'] ?? 100_000);
const HOT = 64;
const READS = 2_000;

const dir = mkdtempSync(join(tmpdir(), 'outpoint-mempool-balance-'));
try {
  const path = join(dir, 'index.sqlite');
  const store = new SqliteStore({ path, cacheMb: 128 });
  await store.migrate();
  await store.close();
  const db = openSqliteDatabase(path, { readonly: false });
  const t = chainTables('BTCTEST');
  const output = db.prepare(`INSERT INTO ${t.mempoolOutputs} (txid, vout, value, script) VALUES (?, ?, ?, ?)`);
  const spend = db.prepare(`INSERT INTO ${t.mempoolSpends} (prev_txid, prev_vout, txid, vin, script, value) VALUES (?, ?, ?, ?, ?, ?)`);
  db.transaction(() => {
    for (let i = 0; i < TXS; i++) {
      const txid = randomBytes(32);
      output.run(txid, 0, 400 + ((i * 7919) % 4000), i % HOT);
      output.run(txid, 1, 10_000 + i, 1_000 + i);
      spend.run(randomBytes(32), 0, txid, 0, 1_000_000 + i, 20_000);
    }
  })();
  const withCount = db.prepare(`SELECT ${mempoolSumsSql(t.mempoolOutputs, t.mempoolSpends, '@key', true)}`);
  const withoutCount = db.prepare(`SELECT ${mempoolSumsSql(t.mempoolOutputs, t.mempoolSpends, '@key', false)}`);
  const whole = db.prepare(`SELECT ${mempoolSumsSql(t.mempoolOutputs, t.mempoolSpends, '@key', false, 'whole')}`);
  const perRead = (statement: typeof withCount): number => {
    const started = performance.now();
    for (let i = 0; i < READS; i++) statement.get({ key: i % HOT });
    return ((performance.now() - started) * 1000) / READS;
  };
  perRead(withCount);
  perRead(withoutCount);
  perRead(whole);
  console.log(`${TXS} mempool txs, ${HOT} hot addresses (~${Math.round(TXS / HOT)} mempool txs each), ${READS} reads a side`);
  for (let round = 1; round <= 3; round++) {
    const a = perRead(withCount);
    const b = perRead(withoutCount);
    const c = perRead(whole);
    console.log(`round ${round}: with the tx count ${a.toFixed(0)} µs, without ${b.toFixed(0)} µs (${(a / b).toFixed(2)}x), `
      + `without and summed whole ${c.toFixed(0)} µs (${(b / c).toFixed(2)}x less than split)`);
  }
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
