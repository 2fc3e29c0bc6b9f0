/**
 * What SQLite alone costs for the writes an address index cannot avoid, on this machine: the lower bound under the
 * indexer's figures in bench/index.bench.ts. A leaner schema than ours (no history table, integer keys appended in
 * order, one index each for txid and script) takes rows shaped like the 100,000-tx regtest chain (3.75 outputs and
 * 2.28 spends per tx, half the output scripts new, 563-byte raw txs) in 20,000-tx transactions, with better-sqlite3
 * and 64-row INSERTs like the real writer. Random data is made before the clock starts.
 *   node --import tsx bench/sqlite-floor.bench.ts        (FLOOR_TXS, default 100000)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openSqliteDatabase } from '../src/store/sqlite/connection/sqlite-binding.js';

const NTX = Number(process.env['FLOOR_TXS'] ?? 100_000);
const BATCH = 20_000;
const RAW_BYTES = 563;
const ROWS = 64;

interface Variant {
  readonly name: string;
  readonly indexes: boolean;
  readonly raw: boolean;
}

interface Plan {
  txids: Buffer[];
  /** Per tx: [script id, is new] per output. */
  outputs: { script: number; fresh: Buffer | null }[][];
  /** Per tx: output ids it spends. */
  spends: number[][];
  touched: number[][];
}

// Spends pick any earlier output at random: a pessimistic locality (real chains spend recent outputs more often).
function makePlan(): Plan {
  const plan: Plan = { txids: [], outputs: [], spends: [], touched: [] };
  const outputIds: number[] = [];
  let scripts = 0;
  for (let tx = 1; tx <= NTX; tx++) {
    plan.txids.push(randomBytes(32));
    const outs: { script: number; fresh: Buffer | null }[] = [];
    for (let v = 0; v < (Math.random() < 0.75 ? 4 : 3); v++) {
      if (scripts === 0 || Math.random() < 0.52) outs.push({ script: ++scripts, fresh: randomBytes(22) });
      else outs.push({ script: 1 + Math.floor(Math.random() * scripts), fresh: null });
    }
    plan.outputs.push(outs);
    const spent: number[] = [];
    for (let k = 0; k < (Math.random() < 0.28 ? 2 : 3) && outputIds.length > 0; k++) spent.push(outputIds[Math.floor(Math.random() * outputIds.length)]!);
    plan.spends.push(spent);
    plan.touched.push(outs.filter((o) => !o.fresh).map((o) => o.script));
    outs.forEach((_, v) => outputIds.push(tx * 1_048_576 + v));
  }
  return plan;
}

function bulk(db: Database.Database, head: string, columns: number): { add(...values: unknown[]): void; finish(): void } {
  const tuple = `(${new Array<string>(columns).fill('?').join(',')})`;
  const full = db.prepare(`${head} VALUES ${new Array<string>(ROWS).fill(tuple).join(',')}`);
  const params = new Array<unknown>(columns * ROWS);
  let n = 0;
  return {
    add(...values: unknown[]): void {
      for (let i = 0; i < columns; i++) params[n * columns + i] = values[i];
      if (++n === ROWS) {
        full.run(params);
        n = 0;
      }
    },
    finish(): void {
      if (n > 0) db.prepare(`${head} VALUES ${new Array<string>(n).fill(tuple).join(',')}`).run(params.slice(0, n * columns));
      n = 0;
    },
  };
}

function timeVariant(variant: Variant, plan: Plan): number {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-floor-'));
  const db = openSqliteDatabase(join(dir, 'floor.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -131072');
  db.exec(`CREATE TABLE txs (id INTEGER PRIMARY KEY, txid BLOB NOT NULL, height INTEGER NOT NULL, position INTEGER NOT NULL, raw BLOB);
    CREATE TABLE outputs (id INTEGER PRIMARY KEY, script_id INTEGER NOT NULL, value INTEGER NOT NULL, spent_by INTEGER);
    CREATE TABLE scripts (id INTEGER PRIMARY KEY, script BLOB NOT NULL, received TEXT NOT NULL, tx_count INTEGER NOT NULL);`);
  if (variant.indexes) {
    db.exec(`CREATE UNIQUE INDEX txs_by_txid ON txs (txid);
      CREATE INDEX outputs_by_script ON outputs (script_id, id);
      CREATE UNIQUE INDEX scripts_by_script ON scripts (script);`);
  }
  const raw = randomBytes(RAW_BYTES);
  const spend = db.prepare('UPDATE outputs SET spent_by = ? WHERE id = ?');
  const total = db.prepare('UPDATE scripts SET received = ?, tx_count = tx_count + 1 WHERE id = ?');
  const started = process.hrtime.bigint();
  for (let from = 0; from < NTX; from += BATCH) {
    db.transaction(() => {
      const txs = bulk(db, 'INSERT INTO txs (id, txid, height, position, raw)', 5);
      const outs = bulk(db, 'INSERT INTO outputs (id, script_id, value, spent_by)', 4);
      const scripts = bulk(db, 'INSERT INTO scripts (id, script, received, tx_count)', 4);
      for (let i = from; i < Math.min(NTX, from + BATCH); i++) {
        const id = i + 1;
        txs.add(id, plan.txids[i], Math.floor(id / 232), i - from, variant.raw ? raw : null);
        plan.outputs[i]!.forEach((o, v) => {
          if (o.fresh) scripts.add(o.script, o.fresh, '100000', 1);
          outs.add(id * 1_048_576 + v, o.script, 100_000, null);
        });
        plan.spends[i]!.forEach((outputId, vin) => spend.run(id * 1_048_576 + vin, outputId));
        for (const script of plan.touched[i]!) total.run('123456', script);
      }
      txs.finish();
      outs.finish();
      scripts.finish();
    })();
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return seconds;
}

export function run(): void {
  const plan = makePlan();
  const rows = plan.outputs.reduce((n, o) => n + o.length, 0);
  const spends = plan.spends.reduce((n, s) => n + s.length, 0);
  console.log(`sqlite write floor: ${NTX} txs, ${rows} outputs, ${spends} spends, ${plan.outputs.flat().filter((o) => o.fresh).length} new scripts (node ${process.version})`);
  const variants: Variant[] = [
    { name: 'txid + script indexes, raw txs', indexes: true, raw: true },
    { name: 'no secondary indexes, raw txs', indexes: false, raw: true },
    { name: 'txid + script indexes, no raw', indexes: true, raw: false },
    { name: 'no secondary indexes, no raw', indexes: false, raw: false },
  ];
  for (const variant of variants) console.log(`  ${variant.name.padEnd(34)} ${timeVariant(variant, plan).toFixed(2)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) run();
