import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '../../../test/helpers/postgres-server.js';
import { WriterStandbyError } from '../../core/domain/errors.js';
import { numbered } from '../common/sql/sql-runner.js';
import { ChainBuilder, p2pkh } from '../conformance/block-builder.js';
import { answers, bulkLoad, sampleChain } from '../conformance/chain/conformance-bulk.js';
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

void describe('PostgreSQL bulk build: side sessions', () => {
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

  it('a table left by a history step that did not commit is made again; without one the totals sum the outputs', async () => {
    const { chain, scripts } = sampleChain();
    const reference = await harness.create();
    const stale = await harness.create();
    const absent = await harness.create();
    try {
      for (const db of [reference, stale, absent]) await db.store.migrate();
      await bulkLoad(reference.store.network('BTC'), chain.blocks, 4);
      const expected = await answers(reference.store.network('BTC'), scripts, chain.blocks);
      // Killed after the side session committed its table and before the history step did: wrong sums would be read.
      await buildUntil(stale, chain, 6);
      await stale.exec('CREATE TABLE bulk_scripts_btc_sums AS SELECT script, sum(value) * 2 AS received, 0::numeric AS sent FROM outputs_btc GROUP BY script');
      const staleNet = (await stale.reopen()).network('BTC');
      await staleNet.finishBulkLoad();
      assert.equal(await answers(staleNet, scripts, chain.blocks), expected);
      // History built by an older version (no staged table): the totals step sums the outputs itself.
      await buildUntil(absent, chain, 7);
      await absent.exec('DROP TABLE bulk_scripts_btc_sums');
      const absentNet = (await absent.reopen()).network('BTC');
      await absentNet.finishBulkLoad();
      assert.equal(await answers(absentNet, scripts, chain.blocks), expected);
      for (const db of [stale, absent]) {
        assert.deepEqual(Object.keys(await db.dump()).filter((t) => t.startsWith('bulk_') && t !== 'bulk_loads'), [], 'no staging table is left');
      }
    } finally {
      await reference.dispose();
      await stale.dispose();
      await absent.dispose();
    }
  });

  it('distinct scripts the spends step listed ahead on a side session are taken by the script keys step', async () => {
    const { chain, scripts } = sampleChain();
    const reference = await harness.create();
    const db = await harness.create();
    try {
      for (const x of [reference, db]) await x.store.migrate();
      await bulkLoad(reference.store.network('BTC'), chain.blocks, 4);
      // Stopped before the script keys step: the side session of the spends step committed the list by itself.
      await buildUntil(db, chain, 3);
      const listed = await (db.store as PostgresStore).pool.query("SELECT to_regclass('bulk_scripts_btc_distinct') AS r, (SELECT count(*) FROM bulk_scripts_btc_distinct) AS n");
      assert.ok(listed.rows[0].r && Number(listed.rows[0].n) > 0, 'listed beside the spends step');
      const net = (await db.reopen()).network('BTC');
      await net.finishBulkLoad();
      assert.equal(await answers(net, scripts, chain.blocks), await answers(reference.store.network('BTC'), scripts, chain.blocks));
    } finally {
      await reference.dispose();
      await db.dispose();
    }
  });
});
