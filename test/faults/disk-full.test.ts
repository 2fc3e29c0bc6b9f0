/**
 * Fault: the disk fills up under an initial sync on SQLite. A file-size limit on the process (`prlimit --fsize`,
 * which needs no mount and works as any user) makes the database's writes fail as on a full disk: the batch rolls
 * back, the indexer logs it and retries, the process keeps serving. After a restart without the limit (space freed)
 * the sync resumes and ends with an intact database equal to an uninterrupted run's.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getNetworkParams } from '../../src/chains/networks.js';
import { MemoryEventBus, silentLogger } from '../../src/core/index.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { openSqliteDatabase } from '../../src/store/sqlite/connection/sqlite-binding.js';
import { freePort } from '../helpers/free-port.js';
import { minePaymentChain } from '../helpers/payment-chain.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, sqliteDigest } from '../helpers/store-engines.js';

const ROOT = new URL('../..', import.meta.url).pathname;
/**
 * Above an empty database (its schema: ~0.7 MiB in the file, ~1.2 MiB of log while it is made) and well below the
 * finished one (~2.4 MiB). With checkpoints in the background the log is copied into the file every 200 ms and starts
 * over, so it is the database file itself that has to outgrow the limit: the chain is made large enough for that.
 */
const FILE_LIMIT_BYTES = 1_500_000;
let node: RegtestNode;
let engines: StoreEngines;
let dir: string;

before(async () => {
  node = await startLitecoind({ funded: true });
  engines = new StoreEngines();
  dir = mkdtempSync(join(tmpdir(), 'outpoint-fault-disk-'));
  await minePaymentChain(node, 50, 100, 100);
});

after(async () => {
  await node?.stop();
  await engines?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function serve(config: string, port: number, limitBytes: number | null): { child: ChildProcess; log: () => string } {
  const command = ['bin/outpoint.js', 'serve', '--config', config];
  const child = limitBytes === null
    ? spawn(process.execPath, command, { cwd: ROOT, env: { ...process.env, OUTPOINT_HTTP_PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] })
    : spawn('prlimit', [`--fsize=${limitBytes}`, '--', process.execPath, ...command], { cwd: ROOT, env: { ...process.env, OUTPOINT_HTTP_PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let text = '';
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, log: () => text };
}

async function status(port: number, path: string): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(10_000) }).catch(() => null))?.status ?? 0;
}

describe('the disk fills up', () => {
  it('the write fails cleanly, serving goes on, and the sync resumes intact once there is space', async () => {
    const path = join(dir, 'store.db');
    const config = join(dir, 'outpoint.toml');
    writeFileSync(config, `data_dir = "${dir}"\n[store]\nurl = "sqlite:${path}"\n[http]\nrate_limit_per_second = 0\n[market]\nsources = []\n` +
      `[networks.LTCTEST]\nchain = "regtest"\npoll_ms = 200\nsync_batch_txs = 40\nrpc_url = "${node.rpcUrl}"\n`);
    const port = await freePort();
    const full = serve(config, port, FILE_LIMIT_BYTES);
    try {
      await waitFor(() => /database or disk is full|SQLITE_FULL|disk I\/O error|EFBIG|file too large/i.test(full.log()), 60_000, 'a write failed for want of space', 100)
        .catch((error: unknown) => assert.fail(`${String(error)}: ${full.log().slice(-1500)}`));
      assert.equal(full.child.exitCode, null, 'the process keeps running');
      assert.equal(await status(port, '/health'), 200, 'and serving');
      assert.equal(await status(port, '/ready/LTCTEST'), 503, 'not ready: the sync cannot go on');
    } finally {
      full.child.kill('SIGTERM');
      await once(full.child, 'exit');
    }
    // Space freed: the same database, no limit.
    const height = await node.rpc.call<number>('getblockcount');
    const freed = serve(config, port, null);
    try {
      await waitFor(async () => (await status(port, '/ready/LTCTEST')) === 200, 90_000, 'synced after space was freed', 250)
        .catch((error: unknown) => assert.fail(`${String(error)}: ${freed.log().slice(-1500)}`));
      assert.match(await (await fetch(`http://127.0.0.1:${port}/ready/LTCTEST`)).text(), new RegExp(`"index_height":${height}\\b`));
    } finally {
      freed.child.kill('SIGTERM');
      await once(freed.child, 'exit');
    }
    const db = openSqliteDatabase(path, { readonly: true });
    try {
      assert.equal((db.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check, 'ok');
    } finally {
      db.close();
    }
    const reference = await engines.create('sqlite');
    await new NetworkIndexer({ params: getNetworkParams('LTCTEST', 'regtest'), source: new RpcChainSource(node.node), store: reference.store.network('LTCTEST'), bus: new MemoryEventBus(), logger: silentLogger }).syncOnce();
    assert.equal(sqliteDigest(path), await reference.digest());
  });
});
