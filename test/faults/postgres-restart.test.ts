/**
 * Fault: PostgreSQL restarts (stopped as a crash would, down for 3 s) while `outpoint serve` is writing an initial
 * sync into it. Meanwhile the API answers 503 in the documented shape (never a 500) and /ready says the store is
 * unreachable; afterwards the indexer resumes by itself and the index equals an uninterrupted run's (a digest of
 * every table): no partial batch was kept.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { getNetworkParams } from '../../src/chains/networks.js';
import { MemoryEventBus, silentLogger } from '../../src/core/index.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { freePort } from '../helpers/free-port.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import { minePaymentChain } from '../helpers/payment-chain.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, postgresDigest } from '../helpers/store-engines.js';

const ROOT = new URL('../..', import.meta.url).pathname;
let node: RegtestNode;
let server: PostgresServer;
let engines: StoreEngines;
let dir: string;

before(async () => {
  [node, server] = await Promise.all([startLitecoind({ funded: true }), startPostgres()]);
  engines = new StoreEngines();
  dir = mkdtempSync(join(tmpdir(), 'outpoint-fault-pg-'));
  await minePaymentChain(node, 30, 10, 100);
});

after(async () => {
  await node?.stop();
  await server?.stop();
  await engines?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function get(port: number, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('PostgreSQL restarts mid-sync', () => {
  it('the API answers 503 meanwhile, the indexer resumes by itself, the index equals an uninterrupted run', async () => {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE fault');
    await admin.end();
    const url = server.urlFor('fault');
    const port = await freePort();
    const config = join(dir, 'outpoint.toml');
    writeFileSync(config, `data_dir = "${dir}"\n[store]\nurl = "${url}"\n[http]\nrate_limit_per_second = 0\n[market]\nsources = []\n` +
      `[networks.LTCTEST]\nchain = "regtest"\npoll_ms = 200\nsync_batch_txs = 20\nrpc_url = "${node.rpcUrl}"\n`);
    // A pause before each index build step keeps the sync under way while the database goes down.
    const child = spawn(process.execPath, ['bin/outpoint.js', 'serve', '--config', config], {
      cwd: ROOT, env: { ...process.env, OUTPOINT_HTTP_PORT: String(port), OUTPOINT_TEST_BUILD_STEP_DELAY_MS: '1000' }, stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    try {
      await waitFor(async () => (await get(port, '/ready/LTCTEST').catch(() => null))?.body['sync_phase'] === 'building-indexes', 60_000, 'the sync has begun', 20)
        .catch((error: unknown) => assert.fail(`${String(error)}: ${log.slice(-1500)}`));
      const restarted = server.restart(3_000);
      // While it is down: answers, in the documented shapes, no 500.
      await waitFor(async () => (await get(port, '/ready')).body['reason'] === 'store unreachable' || (await get(port, '/ready')).status === 503, 10_000, '/ready 503', 100);
      const info = await get(port, '/api/v2/get_info/LTCTEST');
      assert.equal(info.status, 503, JSON.stringify(info.body));
      assert.equal(info.body['status'], 'fail');
      await restarted;
      const height = await node.rpc.call<number>('getblockcount');
      await waitFor(async () => (await get(port, '/ready/LTCTEST')).status === 200 && (await get(port, '/ready/LTCTEST')).body['index_height'] === height, 90_000, 'synced after the restart', 250);
      assert.equal(child.exitCode, null, 'serve kept running');
      assert.match(log, /sync failed; retrying/, 'the outage was logged and retried');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    const reference = await engines.create('postgres');
    await new NetworkIndexer({ params: getNetworkParams('LTCTEST', 'regtest'), source: new RpcChainSource(node.node), store: reference.store.network('LTCTEST'), bus: new MemoryEventBus(), logger: silentLogger }).syncOnce();
    assert.equal(await postgresDigest(url), await reference.digest());
  });
});
