/**
 * PostgreSQL's bulk build alone (finishBulkLoad), timed per step: the index bench's 100,000-tx chain (the raw blocks
 * store-write.bench.ts dumps) is loaded once into a database left at the end of its load (bulk_loads.step 0), and
 * each run builds a copy of it (CREATE DATABASE … TEMPLATE), so every run starts from the same tables. Where the
 * `serve` figure of the index bench says how long the build takes, this says which step to work on.
 *   node --import tsx bench/pg-build.bench.ts
 * Settings (environment): PG_BUILD_RUNS (3), PG_BUILD_DIGEST=1 (print a digest of every chain table and of the
 * indexes after each run: a change to the build must leave it as it was), INDEX_BENCH_PG_SETTINGS (as in the index
 * bench: more server settings, name=value,…).
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { getNetworkParams } from '../src/chains/networks.js';
import { chainTables } from '../src/store/common/schema/chain-tables.js';
import { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { DUMP, dumpChain, loadBatches } from './store-write.bench.js';

const params = getNetworkParams('LTCTEST', 'regtest');

async function query<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * md5 of every row of each chain table in key order, of the indexes' definitions and validity, of the columns' types
 * and nullability. Script keys are a keyed hash whose key each database draws at random (script-keys.ts), so rows
 * name their script by its bytes: digests of two runs compare across databases.
 */
async function digest(url: string): Promise<string[]> {
  const t = chainTables(params.id);
  const tables = [t.blocks, t.txs, t.txRaws, t.outputs, t.history, t.scripts];
  const script = (key: string): string => `(SELECT s.script FROM ${t.scripts} s WHERE s.key = ${key})`;
  const queries: [string, string][] = [
    [t.blocks, `SELECT x::text AS r FROM ${t.blocks} x ORDER BY hash`],
    [t.txs, `SELECT x::text AS r FROM ${t.txs} x ORDER BY id`],
    [t.txRaws, `SELECT x::text AS r FROM ${t.txRaws} x ORDER BY id`],
    [t.outputs, `SELECT concat_ws(',', id, vout, value, ${script('o.script')}, spent_by, spent_vin) AS r FROM ${t.outputs} o ORDER BY id, vout`],
    [t.history, `SELECT concat_ws(',', ${script('h.script')}, id, flags) AS r FROM ${t.history} h ORDER BY 1`],
    [t.scripts, `SELECT concat_ws(',', script, received, sent, tx_count, received_count, sent_count) AS r FROM ${t.scripts} ORDER BY script`],
  ];
  return query(url, async (c) => {
    const out: string[] = [];
    for (const [table, rowsSql] of queries) {
      const r = await c.query(`SELECT count(*) AS n, md5(string_agg(r, '|' ORDER BY r)) AS d FROM (${rowsSql}) q`);
      out.push(`${table}: ${r.rows[0].n} rows ${r.rows[0].d}`);
    }
    const idx = await c.query(`SELECT md5(string_agg(c.relname || ' ' || pg_get_indexdef(i.indexrelid) || ' ' || i.indisvalid || ' ' || i.indisprimary, '|' ORDER BY c.relname)) AS d, count(*) AS n
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class r ON r.oid = i.indrelid WHERE r.relname = ANY($1)`, [tables]);
    out.push(`indexes: ${idx.rows[0].n} ${idx.rows[0].d}`);
    const cols = await c.query(`SELECT md5(string_agg(c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull || ' ' || a.attnum, '|' ORDER BY c.relname, a.attnum)) AS d
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = ANY($1) AND a.attnum > 0 AND NOT a.attisdropped`, [tables]);
    out.push(`columns: ${cols.rows[0].d}`);
    const stats = await c.query(`SELECT string_agg(DISTINCT c.relname, ' ') AS r FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid WHERE c.relname = ANY($1)`, [tables]);
    out.push(`with statistics: ${stats.rows[0].r}`);
    const left = await c.query(`SELECT string_agg(relname, ' ' ORDER BY relname) AS r FROM pg_class WHERE relname LIKE 'bulk_pending%' OR relname LIKE 'bulk_scripts%' OR relname LIKE '%_bulk' OR relname LIKE '%_resolved'`);
    out.push(`staging left: ${left.rows[0].r ?? 'none'}`);
    return out;
  });
}

export async function run(): Promise<void> {
  if (!existsSync(DUMP)) await dumpChain();
  const runs = Number(process.env['PG_BUILD_RUNS'] ?? 3);
  const settings = Object.fromEntries((process.env['INDEX_BENCH_PG_SETTINGS'] ?? '').split(',').filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  const { batches, txs } = loadBatches();
  const server = await startPostgres({ settings });
  try {
    await query(server.url, (c) => c.query('CREATE DATABASE loaded'));
    const loaded = new PostgresStore({ connectionString: server.urlFor('loaded') });
    await loaded.migrate();
    const net = loaded.network(params.id);
    await net.beginBulkLoad(0);
    for (const batch of batches) await net.loadBlocks(batch);
    await loaded.close();
    console.log(`pg build bench: ${txs} txs loaded in ${batches.length} batches, ${runs} run(s) of the build, node ${process.version}`);
    for (let i = 0; i < runs; i++) {
      await query(server.url, (c) => c.query(`CREATE DATABASE build_${i} TEMPLATE loaded`));
      const store = new PostgresStore({ connectionString: server.urlFor(`build_${i}`) });
      const steps: string[] = [];
      let name = '';
      let at = 0;
      const load = loadavg()[0]!.toFixed(2);
      const start = performance.now();
      await store.network(params.id).finishBulkLoad((s) => {
        if (name) steps.push(`${name} ${((performance.now() - at) / 1000).toFixed(2)}`);
        name = s.name;
        at = performance.now();
      });
      steps.push(`${name} ${((performance.now() - at) / 1000).toFixed(2)}`);
      const seconds = (performance.now() - start) / 1000;
      await store.close();
      console.log(`  run ${i + 1} (load ${load}): ${seconds.toFixed(2)} s; ${steps.join(', ')} s (the last includes ANALYZE)`);
      if (process.env['PG_BUILD_DIGEST'] === '1') for (const line of await digest(server.urlFor(`build_${i}`))) console.log(`    ${line}`);
      await query(server.url, (c) => c.query(`DROP DATABASE build_${i}`));
    }
  } finally {
    await server.stop();
  }
}

const argv = process.argv;
if (argv[1] !== undefined && import.meta.url === pathToFileURL(argv[1]).href) await run();
