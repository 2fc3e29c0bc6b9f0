/**
 * What one random insert into a B-tree far larger than the page cache costs, by SQLite page size: the mechanism that
 * bounds following a big index (docs/benchmarks.md, "Following the 20M index": ~130 KB written per tx, each of a tx's
 * ~16 random index entries dirtying its own page, written to the WAL and again at the checkpoint).
 *
 * One table shaped like `history` (script key, tx id, flags; WITHOUT ROWID), filled in key order to PAGE_BENCH_ROWS
 * rows (default 100M: ~2 GB at 4 KB pages, 16x the 128 MiB cache, about the 20M index's ratio to a 1 GiB cache), then
 * rows at random script keys with new tx ids, as blocks of 12,800 rows (a 2,000-tx block's history rows), committed
 * one block at a time and then 32 blocks per transaction (the catch-up's batch). Same WAL mode, synchronous NORMAL
 * and automatic checkpoint as the store. Printed per page size: µs per row, bytes written per row (this process's
 * `write_bytes`: WAL and checkpoint), and the file's size.
 *   npm run bench:btree-pages        (= node --import tsx bench/btree-page-size.bench.ts)
 * Settings: PAGE_BENCH_SIZES (4096,2048,1024), PAGE_BENCH_ROWS (100000000), PAGE_BENCH_CACHE_MB (128),
 * PAGE_BENCH_BLOCKS (40 per round), PAGE_BENCH_MMAP_MB (0), PAGE_BENCH_DELTA_BLOCKS (0: no delta round; N: N blocks'
 * rows through a small recent table, then one sorted merge into the big one: the log-structured alternative), PAGE_BENCH_DIR (a directory on the disk to measure; default the OS temp dir).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openSqliteDatabase } from '../src/store/sqlite/connection/sqlite-binding.js';
import { seededRandom as rng } from '../test/helpers/seeded-random.js';

const SIZES = (process.env['PAGE_BENCH_SIZES'] ?? '4096,2048,1024').split(',').map(Number);
const ROWS = Number(process.env['PAGE_BENCH_ROWS'] ?? 100_000_000);
const CACHE_MB = Number(process.env['PAGE_BENCH_CACHE_MB'] ?? 128);
const BLOCKS = Number(process.env['PAGE_BENCH_BLOCKS'] ?? 40);
/** SQLite's memory-mapped reads (`mmap_size`), 0: off as in the store. */
const MMAP_MB = Number(process.env['PAGE_BENCH_MMAP_MB'] ?? 0);
const ROWS_PER_BLOCK = 12_800;
/** Blocks of the delta round: the rows a recent table gathers before one sorted merge into the big one. */
const DELTA_BLOCKS = Number(process.env['PAGE_BENCH_DELTA_BLOCKS'] ?? 0);
const CATCHUP_BLOCKS = 32;
/** 47-bit script keys, as a new store's (meta.script_key_bits). */
const KEY_SPACE = 2 ** 47;
/** Rows per script while filling: the scale chain's history has ~6 rows per script. */
const ROWS_PER_SCRIPT = 6;
const FILL_TX_ROWS = 1_000_000;

function writeBytes(): number {
  const line = readFileSync('/proc/self/io', 'utf8').split('\n').find((l) => l.startsWith('write_bytes:'));
  return Number(line?.split(/\s+/)[1] ?? 0);
}

function fill(db: Database.Database): void {
  const insert = db.prepare('INSERT INTO history (script, id, flags) VALUES (?, ?, ?)');
  const random = rng(1);
  const scripts = Math.ceil(ROWS / ROWS_PER_SCRIPT);
  const step = KEY_SPACE / scripts;
  const txs = ROWS / 6.4;
  let written = 0;
  db.exec('BEGIN');
  for (let s = 0; s < scripts && written < ROWS; s++) {
    const key = Math.floor(s * step + random() * (step - 1));
    const ids: number[] = [];
    for (let r = 0; r < ROWS_PER_SCRIPT; r++) ids.push(Math.floor(random() * txs));
    ids.sort((a, b) => a - b);
    let last = -1;
    for (const id of ids) {
      if (id === last) continue;
      last = id;
      insert.run(key, id, 1);
      if (++written % FILL_TX_ROWS === 0) db.exec('COMMIT; BEGIN');
    }
  }
  db.exec('COMMIT');
  db.pragma('wal_checkpoint(TRUNCATE)');
}

interface Round {
  readonly usPerRow: number;
  readonly bytesPerRow: number;
}

function round(db: Database.Database, blocksPerTx: number, firstId: number, seed: number): Round {
  const insert = db.prepare('INSERT OR IGNORE INTO history (script, id, flags) VALUES (?, ?, ?)');
  const random = rng(seed);
  const rows = BLOCKS * ROWS_PER_BLOCK;
  const keys = Array.from({ length: rows }, () => Math.floor(random() * KEY_SPACE));
  const before = writeBytes();
  const started = process.hrtime.bigint();
  let id = firstId;
  for (let b = 0; b < BLOCKS; b += blocksPerTx) {
    db.exec('BEGIN');
    for (let k = b * ROWS_PER_BLOCK; k < Math.min(BLOCKS, b + blocksPerTx) * ROWS_PER_BLOCK; k++) {
      if (k % 6 === 0) id++;
      insert.run(keys[k], id, 2);
    }
    db.exec('COMMIT');
  }
  const ns = Number(process.hrtime.bigint() - started);
  return { usPerRow: ns / 1000 / rows, bytesPerRow: (writeBytes() - before) / rows };
}

/**
 * The log-structured alternative: the same random rows go first into a small `recent` table (it stays in the cache,
 * so each block's inserts are cheap), then into the big table in one sorted merge, which dirties each of the big
 * table's pages once for all the rows that land on it. Returns the insert and merge costs per row separately.
 */
function deltaRound(db: Database.Database, firstId: number, seed: number): { insert: Round; merge: Round } {
  db.exec('CREATE TABLE IF NOT EXISTS recent (script INTEGER NOT NULL, id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (script, id)) WITHOUT ROWID');
  const insert = db.prepare('INSERT OR IGNORE INTO recent (script, id, flags) VALUES (?, ?, ?)');
  const random = rng(seed);
  const rows = DELTA_BLOCKS * ROWS_PER_BLOCK;
  let before = writeBytes();
  let started = process.hrtime.bigint();
  let id = firstId;
  for (let b = 0; b < DELTA_BLOCKS; b++) {
    db.exec('BEGIN');
    for (let k = 0; k < ROWS_PER_BLOCK; k++) {
      if (k % 6 === 0) id++;
      insert.run(Math.floor(random() * KEY_SPACE), id, 2);
    }
    db.exec('COMMIT');
  }
  const inserted = { usPerRow: Number(process.hrtime.bigint() - started) / 1000 / rows, bytesPerRow: (writeBytes() - before) / rows };
  before = writeBytes();
  started = process.hrtime.bigint();
  db.exec('BEGIN');
  // `recent` is a WITHOUT ROWID table keyed like `history`: its scan is already in key order.
  db.exec('INSERT OR IGNORE INTO history (script, id, flags) SELECT script, id, flags FROM recent');
  db.exec('DELETE FROM recent');
  db.exec('COMMIT');
  db.pragma('wal_checkpoint(TRUNCATE)');
  return { insert: inserted, merge: { usPerRow: Number(process.hrtime.bigint() - started) / 1000 / rows, bytesPerRow: (writeBytes() - before) / rows } };
}

const parent = mkdtempSync(join(process.env['PAGE_BENCH_DIR'] ?? tmpdir(), 'page-bench-'));
console.log(`btree page-size bench: ${ROWS} rows filled, cache ${CACHE_MB} MiB, mmap ${MMAP_MB} MiB, rounds of ${BLOCKS} blocks x ${ROWS_PER_BLOCK} random rows, node ${process.version}`);
try {
  for (const size of SIZES) {
    const file = join(parent, `history-${size}.db`);
    const db = openSqliteDatabase(file);
    db.pragma(`page_size = ${size}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`cache_size = -${CACHE_MB * 1024}`);
    if (MMAP_MB > 0) db.pragma(`mmap_size = ${MMAP_MB * 1024 * 1024}`);
    db.exec('CREATE TABLE history (script INTEGER NOT NULL, id INTEGER NOT NULL, flags INTEGER NOT NULL, PRIMARY KEY (script, id)) WITHOUT ROWID');
    const filledAt = Date.now();
    fill(db);
    const fillS = (Date.now() - filledAt) / 1000;
    const mib = statSync(file).size / 1024 / 1024;
    const idBase = Math.ceil(ROWS / 6.4) + 1;
    const single = round(db, 1, idBase, 2);
    const batched = round(db, CATCHUP_BLOCKS, idBase + BLOCKS * ROWS_PER_BLOCK, 3);
    console.log(
      `  page ${String(size).padStart(5)}: file ${mib.toFixed(0)} MiB (filled in ${fillS.toFixed(0)} s); ` +
      `one block per tx ${single.usPerRow.toFixed(2)} µs/row, ${(single.bytesPerRow / 1024).toFixed(1)} KiB written/row; ` +
      `${CATCHUP_BLOCKS} blocks per tx ${batched.usPerRow.toFixed(2)} µs/row, ${(batched.bytesPerRow / 1024).toFixed(1)} KiB written/row`,
    );
    if (DELTA_BLOCKS > 0) {
      const { insert, merge } = deltaRound(db, idBase + 2 * BLOCKS * ROWS_PER_BLOCK, 4);
      console.log(
        `             through a recent table, ${DELTA_BLOCKS} blocks then one sorted merge: insert ${insert.usPerRow.toFixed(2)} µs/row ` +
        `(${(insert.bytesPerRow / 1024).toFixed(1)} KiB), merge ${merge.usPerRow.toFixed(2)} µs/row (${(merge.bytesPerRow / 1024).toFixed(1)} KiB), ` +
        `together ${(insert.usPerRow + merge.usPerRow).toFixed(2)} µs/row`,
      );
    }
    db.close();
    rmSync(file, { force: true });
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
  }
} finally {
  rmSync(parent, { recursive: true, force: true });
}
