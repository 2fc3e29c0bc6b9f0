/**
 * Read routing over a real streaming replica (pg_basebackup -R): a read scope reads the replica while it is within the
 * lag bound, the primary once it lags more (replay paused with pg_wal_replay_pause), the replica again once it caught
 * up; reads outside a scope (the indexer's) always read the primary; with the primary down the replica stays in use.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '../../../../test/helpers/postgres-server.js';
import { waitFor } from '../../../../test/helpers/wait-for.js';
import { networkCode } from '../../common/schema/network-codes.js';
import { PostgresStore } from '../postgres-store.js';

const DB = 'routed';
let primary: PostgresServer;
let replica: PostgresServer;
let store: PostgresStore;

async function sql(server: PostgresServer, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: server.urlFor(DB) });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

const setTip = (height: number): Promise<pg.QueryResult> =>
  sql(primary, `INSERT INTO tips (net, height, hash, next_tx) VALUES ($1, $2, $3, 0)
    ON CONFLICT (net) DO UPDATE SET height = excluded.height, hash = excluded.hash`, [networkCode('LTC'), height, Buffer.alloc(32, height)]);

before(async () => {
  primary = await startPostgres({ replication: true });
  const admin = new pg.Client({ connectionString: primary.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DB}`);
  await admin.end();
  const migrating = new PostgresStore({ connectionString: primary.urlFor(DB) });
  await migrating.migrate();
  await migrating.close();
  await setTip(1);
  replica = await primary.startReplica();
  store = new PostgresStore({ connectionString: primary.urlFor(DB), readUrls: [replica.urlFor(DB)], maxReplicaLagMs: 600, replicaCheckMs: 50 });
});

after(async () => {
  await store?.close();
  await replica?.stop();
  await primary?.stop();
});

describe('read replicas (PostgreSQL)', () => {
  const replicas = () => store.readReplicas()!;
  const tipInScope = async (): Promise<number | undefined> => (await replicas().scope.run(() => store.network('LTC').getTip()))?.height;
  const tip = async (): Promise<number | undefined> => (await store.network('LTC').getTip())?.height;

  it('a read scope reads the replica within the lag bound, the primary beyond it, the replica again once caught up', async () => {
    await waitFor(async () => replicas().states()[0]!.inUse, 10_000, 'the replica in use');
    assert.equal(replicas().states()[0]!.name, `127.0.0.1:${replica.port}/${DB}`);
    await setTip(2);
    await waitFor(async () => (await tipInScope()) === 2, 10_000, 'the replica replays tip 2');
    await sql(replica, 'SELECT pg_wal_replay_pause()');
    await setTip(3);
    assert.equal(await tip(), 3, 'outside a scope: the primary');
    assert.equal(await tipInScope(), 2, 'in a scope: the paused replica, within the bound');
    await waitFor(async () => !replicas().states()[0]!.inUse, 10_000, 'the lagging replica skipped');
    const lagging = replicas().states()[0]!;
    assert.ok(lagging.lagMs! > 600 && lagging.up, JSON.stringify(lagging));
    assert.match(lagging.reason!, /^lagging \d+ ms \(at most 600 allowed\)$/);
    assert.equal(await tipInScope(), 3, 'beyond the bound: the primary');
    await sql(replica, 'SELECT pg_wal_replay_resume()');
    await waitFor(async () => replicas().states()[0]!.inUse && (await tipInScope()) === 3, 10_000, 'the replica back in use');
  });

  it('one scope reads one source for all its reads, even when the replica is skipped in between', async () => {
    await sql(replica, 'SELECT pg_wal_replay_pause()');
    await setTip(4);
    const heights = await replicas().scope.run(async () => {
      const first = await tip();
      await waitFor(async () => !replicas().states()[0]!.inUse, 10_000, 'the replica skipped');
      return [first, await tip()];
    });
    assert.deepEqual(heights, [3, 3], 'both reads from the replica the scope started on');
    assert.equal(await tipInScope(), 4, 'a new scope: the primary');
    await sql(replica, 'SELECT pg_wal_replay_resume()');
    await waitFor(async () => replicas().states()[0]!.inUse, 10_000, 'the replica back in use');
  });

  it('with the primary down the replica stays in use and answers, past the bound though the primary wrote more', async () => {
    // The primary's last write is one the replica never replayed (as when the primary dies right after a write):
    // with no primary it cannot be read anywhere, so it is no lag and the freshest replica stays in use.
    await sql(replica, 'SELECT pg_wal_replay_pause()');
    await setTip(5);
    await new Promise((resolve) => setTimeout(resolve, 200)); // a check or more sees the primary's new position
    primary.kill();
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // beyond the 600 ms bound
      assert.equal(replicas().states()[0]!.inUse, true, JSON.stringify(replicas().states()[0]));
      assert.equal(await tipInScope(), 4);
      assert.equal(await replicas().scope.run(() => store.schemaVersion()) > 0, true, 'the store ping reads the replica');
      await assert.rejects(tip(), { name: 'StoreUnavailableError' }, 'the primary is down for reads outside a scope');
    } finally {
      await sql(replica, 'SELECT pg_wal_replay_resume()');
      primary.start();
    }
  });
});
