/**
 * `[store] read_urls` on real processes (docs/operations.md, "Read replicas"): a PostgreSQL primary with a streaming
 * replica made by `pg_basebackup -R` (a hot standby on another port), one `outpoint index` writing the primary and one
 * `outpoint serve --api-only` reading the replica. Balances equal the node's, the API's reads run on the replica's
 * connections, /ready and /metrics list the replica with its lag; with the primary stopped the reads answer unchanged
 * (a write answers 503 + Retry-After), and once it is back the indexer resumes and the replica brings the new block.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { spawnIndexProcess } from '../helpers/index-process.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { httpJson, startServe, type ServeProcess } from '../helpers/serve-process.js';

const DB = 'replicated';
let node: RegtestNode;
let primary: PostgresServer;
let replica: PostgresServer;
let indexer: ChildProcess;
const indexerLog: string[] = [];
let api: ServeProcess;
let address: string;

async function readerConnections(server: PostgresServer): Promise<number> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'outpoint api reads'", [DB]);
    return (rows[0] as { n: number }).n;
  } finally {
    await client.end();
  }
}

const balance = async (): Promise<{ status: number; balance: string | undefined }> => {
  const r = await httpJson(api.port, `/api/v2/get_address_balance/LTCTEST/${address}`);
  return { status: r.status, balance: r.body.data?.confirmed_balance };
};
const blocks = async (): Promise<number> => (await httpJson(api.port, '/api/v2/get_info/LTCTEST')).body.data.blocks;

before(async () => {
  node = await startLitecoind({ funded: true });
  // An address of another wallet: the funded wallet never spends from it, so its balance only grows.
  address = await (await node.createWallet('payee')).call<string>('getnewaddress', ['', 'bech32']);
  await node.send(address, '1.25');
  await node.mine(3);
  primary = await startPostgres({ replication: true });
  const admin = new pg.Client({ connectionString: primary.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DB}`);
  await admin.end();
  replica = await primary.startReplica();
  indexer = spawnIndexProcess(primary.urlFor(DB), node.rpcUrl, { OUTPOINT_NETWORKS_LTCTEST_SYNC_BATCH_TXS: '20000' });
  indexer.stderr?.on('data', (chunk: Buffer) => indexerLog.push(chunk.toString()));
  const config = join(node.datadir, 'outpoint-replicas.toml');
  writeFileSync(config, `[store]\nurl = "${primary.urlFor(DB)}"\nread_urls = ["${replica.urlFor(DB)}"]\nmax_replica_lag_ms = 2000\n` +
    `[http]\nrate_limit_per_second = 0\n[health]\ncheck_interval_ms = 200\n[market]\nsources = []\n` +
    `[networks.LTCTEST]\nchain = "regtest"\nrpc_url = "${node.rpcUrl}"\npoll_ms = 100\n`);
  // Up once HTTP answers: the index may still be empty (503 "syncing" until the indexer's first pass is replayed).
  api = await startServe(config, { apiOnly: true, readyPath: '/health' });
  const tip = await node.rpc.call<number>('getblockcount');
  await waitFor(async () => (await blocks().catch(() => -1)) === tip && (await balance()).status === 200, 60_000, 'the API at the tip through the replica');
});

after(async () => {
  await api?.stop();
  if (indexer && indexer.exitCode === null && indexer.signalCode === null) {
    const exited = once(indexer, 'exit');
    indexer.kill('SIGTERM');
    await exited;
  }
  await replica?.stop();
  await primary?.stop();
  await node?.stop();
});

describe('read replicas ([store] read_urls)', () => {
  it('the API reads the replica: balances equal the node, replica connections in use, /ready and /metrics name it', async () => {
    assert.deepEqual(await balance(), { status: 200, balance: '1.25000000' });
    assert.ok((await readerConnections(replica)) > 0, 'the API process holds read connections on the replica');
    assert.equal(await readerConnections(primary), 0, 'and none on the primary');
    const name = `127.0.0.1:${replica.port}/${DB}`;
    const ready = await httpJson(api.port, '/ready');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.store.replicas.length, 1);
    const [state] = ready.body.store.replicas;
    assert.deepEqual({ ...state, lag_ms: null }, { replica: 1, in_use: true, up: true, lag_ms: null, reason: null }, 'by place and code: no host name in a public body');
    assert.ok(state.lag_ms >= 0 && state.lag_ms <= 2000, `lag ${state.lag_ms} ms`);
    const metrics = await (await fetch(`${api.url}/metrics`)).text();
    assert.match(metrics, new RegExp(`outpoint_store_replica_lag_seconds\\{replica="${name}"\\} [0-9.e-]+`));
    assert.match(metrics, new RegExp(`outpoint_store_replica_in_use\\{replica="${name}"\\} 1`));
    assert.match(metrics, new RegExp(`outpoint_store_replica_up\\{replica="${name}"\\} 1`));

    // A new block reaches the API through the replica within the lag bound.
    await node.send(address, '0.5');
    await node.mine(1);
    await waitFor(async () => (await balance()).balance === '1.75000000', 30_000, 'the new payment through the replica');
  });

  it('primary stopped: reads keep answering from the replica, a write answers 503 + Retry-After', async () => {
    const tip = await node.rpc.call<number>('getblockcount');
    await waitFor(async () => (await blocks()) === tip, 30_000, 'the API at the tip');
    primary.kill();
    // A block the indexer cannot write while the primary is down.
    await node.send(address, '0.25');
    await node.mine(1);
    for (let i = 0; i < 20; i++) {
      assert.deepEqual(await balance(), { status: 200, balance: '1.75000000' }, `read ${i} with the primary down`);
      assert.equal(await blocks(), tip);
      await delay(150);
    }
    const ready = await httpJson(api.port, '/ready');
    assert.equal(ready.status, 200, JSON.stringify(ready.body));
    assert.equal(ready.body.store.replicas[0].in_use, true, 'the replica stays in use: no primary to lag behind');
    const write = await fetch(`${api.url}/api/v2/short/LTCTEST/${address}`);
    assert.equal(write.status, 503, 'a short form is written to the primary');
    assert.ok(Number(write.headers.get('retry-after')) > 0, `Retry-After ${write.headers.get('retry-after')}`);
  });

  it('primary back: the indexer resumes and its block reaches the API through the replica', async () => {
    primary.start();
    const tip = await node.rpc.call<number>('getblockcount');
    await waitFor(async () => (await balance()).balance === '2.00000000' && (await blocks()) === tip, 60_000,
      `the block mined while the primary was down; indexer log: ${indexerLog.join('').slice(-1500)}`);
    assert.equal(indexer.exitCode, null, 'the same indexer process resumed');
    assert.equal((await fetch(`${api.url}/api/v2/short/LTCTEST/${address}`)).status, 200, 'writes work again');
  });
});
