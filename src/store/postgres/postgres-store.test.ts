import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '../../../test/helpers/postgres-server.js';
import { WriterStandbyError } from '../../core/domain/errors.js';
import { numbered } from '../common/sql/sql-runner.js';
import { ChainBuilder, p2pkh } from '../conformance/block-builder.js';
import { answers, bulkLoad, sampleChain } from '../conformance/conformance-bulk.js';
import { plainRows, type StoreHarness, type TestDatabase } from '../conformance/harness.js';
import { runStoreConformance } from '../conformance/run-store-conformance.js';
import { PostgresStore } from './postgres-store.js';

let server: PostgresServer;
let admin: pg.Client;
let counter = 0;

before(async () => {
  server = await startPostgres();
  admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
});

after(async () => {
  await admin?.end();
  await server?.stop();
});

const harness: StoreHarness = {
  async create(options = {}): Promise<TestDatabase> {
    const name = `outpoint_test_${process.pid}_${++counter}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = server.urlFor(name);
    let store = new PostgresStore({ connectionString: url, maxConnections: 4, ...options });
    return {
      get store() { return store; },
      engine: 'postgres',
      async dump() {
        const tables = await store.pool.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename");
        const out: Record<string, Record<string, string | null>[]> = {};
        for (const { tablename } of tables.rows as { tablename: string }[]) {
          out[tablename] = plainRows((await store.pool.query(`SELECT * FROM ${tablename}`)).rows as Record<string, unknown>[]);
        }
        return out;
      },
      async setSchemaVersion(version) {
        await store.pool.query("UPDATE meta SET value = $1 WHERE key = 'schema_version'", [String(version)]);
      },
      async exec(sql, params) {
        if (params) await store.pool.query(numbered(sql), [...params]);
        else await store.pool.query(sql);
      },
      async reopen() {
        await store.close();
        store = new PostgresStore({ connectionString: url, maxConnections: 4, ...options });
        return store;
      },
      async dispose() {
        await store.close();
        await admin.query(`DROP DATABASE ${name}`);
      },
    };
  },
};

runStoreConformance('PostgreSQL', harness);

void describe('PostgreSQL writer lock', () => {
  it('allows one writer per network', async () => {
    const db = await harness.create();
    const second = new PostgresStore({ connectionString: server.urlFor(`outpoint_test_${process.pid}_${counter}`) });
    try {
      await db.store.migrate();
      const chain = new ChainBuilder();
      await db.store.network('BTC').connectBlocks([chain.add(p2pkh(1), 50n)]);
      await assert.rejects(second.network('BTC').connectBlocks([chain.add(p2pkh(1), 50n)]), (e: unknown) => e instanceof WriterStandbyError && /advisory lock held\); standing by/.test(e.message));
      await second.network('LTC').connectBlocks([new ChainBuilder().add(p2pkh(1), 50n)]);
      assert.equal((await second.network('BTC').getTip())?.height, 0, 'reads are not locked');
    } finally {
      await second.close();
      await db.dispose();
    }
  });
});

void describe('PostgreSQL bulk load begun by an older version', () => {
  it('pending spends staged without their block (no spender_block column) build the same index', async () => {
    const { chain, scripts } = sampleChain();
    const fresh = await harness.create();
    const upgraded = await harness.create();
    try {
      await fresh.store.migrate();
      await upgraded.store.migrate();
      await bulkLoad(fresh.store.network('BTC'), chain.blocks, 4);
      const net = upgraded.store.network('BTC');
      await net.beginBulkLoad(1);
      await net.loadBlocks(chain.blocks.slice(0, 8));
      // As the older version left it: its staging table had no spender_block; this process has not loaded yet.
      await upgraded.exec('ALTER TABLE bulk_pending_btc DROP COLUMN spender_block');
      const reopened = (await upgraded.reopen()).network('BTC');
      for (let i = 8; i < chain.blocks.length; i += 4) await reopened.loadBlocks(chain.blocks.slice(i, i + 4));
      await reopened.finishBulkLoad();
      assert.equal(await answers(reopened, scripts, chain.blocks), await answers(fresh.store.network('BTC'), scripts, chain.blocks));
    } finally {
      await fresh.dispose();
      await upgraded.dispose();
    }
  });
});

void describe('PostgreSQL bulk build: work done ahead of its step', () => {
  /** Loads the sample chain and runs the build up to (not including) step `stop` (1-based), as a kill there would. */
  async function buildUntil(db: TestDatabase, chain: ReturnType<typeof sampleChain>['chain'], stop: number): Promise<void> {
    const net = db.store.network('BTC');
    await net.beginBulkLoad(1);
    for (let i = 0; i < chain.blocks.length; i += 4) await net.loadBlocks(chain.blocks.slice(i, i + 4));
    await net.finishBulkLoad((s) => {
      if (s.step === stop) throw new Error('killed');
    }).catch(() => undefined);
    assert.equal((await net.getBulkLoad())?.step, stop - 1);
  }

  async function expectedAnswers(): Promise<{ chain: ReturnType<typeof sampleChain>['chain']; scripts: Uint8Array[]; expected: string }> {
    const { chain, scripts } = sampleChain();
    const reference = await harness.create();
    try {
      await reference.store.migrate();
      await bulkLoad(reference.store.network('BTC'), chain.blocks, 4);
      return { chain, scripts, expected: await answers(reference.store.network('BTC'), scripts, chain.blocks) };
    } finally {
      await reference.dispose();
    }
  }

  async function finish(db: TestDatabase): Promise<ReturnType<PostgresStore['network']>> {
    const net = (await db.reopen()).network('BTC');
    await net.finishBulkLoad();
    assert.equal(await net.getBulkLoad(), null);
    assert.deepEqual(Object.keys(await db.dump()).filter((t) => t.startsWith('bulk_') && t !== 'bulk_loads'), [], 'no staging table is left');
    const analyzed = await (db.store as PostgresStore).pool.query(`SELECT DISTINCT c.relname FROM pg_statistic s JOIN pg_class c ON c.oid = s.starelid
      WHERE c.relname IN ('blocks_btc', 'txs_btc', 'outputs_btc', 'history_btc', 'scripts_btc') ORDER BY 1`);
    assert.deepEqual(analyzed.rows.map((r: { relname: string }) => r.relname), ['blocks_btc', 'history_btc', 'outputs_btc', 'scripts_btc', 'txs_btc'], 'statistics of every chain table');
    return net;
  }

  it('a history the side session committed before its step did is kept, not written twice', async () => {
    const { chain, scripts, expected } = await expectedAnswers();
    const db = await harness.create();
    try {
      await db.store.migrate();
      // Killed after the spender-index step's side session committed the history, before the step itself committed.
      await buildUntil(db, chain, 4);
      await db.exec(`INSERT INTO history_btc (script, id, flags) SELECT script, id, bit_or(f) FROM (SELECT script, id, 1 AS f FROM outputs_btc
        UNION ALL SELECT script, spent_by, 2 FROM outputs_btc WHERE spent_by IS NOT NULL) io GROUP BY script, id`);
      await db.exec('ALTER TABLE history_btc ADD CONSTRAINT history_btc_pkey PRIMARY KEY (script, id)');
      assert.equal(await answers(await finish(db), scripts, chain.blocks), expected);
    } finally {
      await db.dispose();
    }
  });

  it('a load whose spender index an older version built: the later steps build what was not done ahead', async () => {
    const { chain, scripts, expected } = await expectedAnswers();
    const db = await harness.create();
    try {
      await db.store.migrate();
      await buildUntil(db, chain, 5);
      // As the older version left it after that step: no unspent index, no history, no staged sums; and a sums table
      // with wrong amounts, as a side session beside a history step that then failed could not leave, made again.
      await db.exec('DROP INDEX outputs_btc_unspent');
      await db.exec('ALTER TABLE history_btc DROP CONSTRAINT history_btc_pkey');
      await db.exec('TRUNCATE history_btc');
      await db.exec('DROP TABLE bulk_scripts_btc_sums');
      await db.exec('CREATE TABLE bulk_scripts_btc_sums AS SELECT script, sum(value) * 2 AS received, 0::numeric AS sent FROM outputs_btc GROUP BY script');
      assert.equal(await answers(await finish(db), scripts, chain.blocks), expected);
      const unspent = await (db.store as PostgresStore).pool.query("SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('outputs_btc_unspent')");
      assert.equal(unspent.rows[0]?.indisvalid, true, 'the unspent index step built it');
    } finally {
      await db.dispose();
    }
  });

  it('a load whose history an older version built (no staged sums): the totals step sums the outputs itself', async () => {
    const { chain, scripts, expected } = await expectedAnswers();
    const db = await harness.create();
    try {
      await db.store.migrate();
      await buildUntil(db, chain, 7);
      await db.exec('DROP TABLE bulk_scripts_btc_sums');
      assert.equal(await answers(await finish(db), scripts, chain.blocks), expected);
    } finally {
      await db.dispose();
    }
  });

  it('distinct scripts the spends step listed ahead are taken by the script keys step; a resumed build analyzes every table', async () => {
    const { chain, scripts, expected } = await expectedAnswers();
    const db = await harness.create();
    try {
      await db.store.migrate();
      await buildUntil(db, chain, 3);
      assert.ok((await (db.store as PostgresStore).pool.query("SELECT to_regclass('bulk_scripts_btc_distinct') AS r")).rows[0].r, 'listed beside the spends step');
      assert.equal(await answers(await finish(db), scripts, chain.blocks), expected);
    } finally {
      await db.dispose();
    }
  });
});
