/**
 * Standby indexers: a second `outpoint index` for the same network waits for the writer lock instead of failing
 * (PostgreSQL: the advisory lock; SQLite: the writer lock file), and takes over within seconds when the writer dies
 * (kill -9 mid-sync) or, on PostgreSQL, loses its lock session (pg_terminate_backend). The index the survivors end
 * with equals an uninterrupted run's (a digest of every table), so no batch was written twice or half, and no write
 * ever went through a session (or process) without the lock.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { getNetworkParams } from '../../src/chains/networks.js';
import { MemoryEventBus, silentLogger, type ChainStore } from '../../src/core/index.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { networkCode } from '../../src/store/common/schema/network-codes.js';
import { LOCK_NAMESPACE } from '../../src/store/postgres/connection/postgres-sql.js';
import { minePaymentChain } from '../helpers/payment-chain.js';
import { spawnIndexProcess } from '../helpers/index-process.js';
import { startLitecoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines } from '../helpers/store-engines.js';

const params = getNetworkParams('LTCTEST', 'regtest');
let node: RegtestNode;
let engines: StoreEngines;
const children: ChildProcess[] = [];

interface Indexer {
  readonly child: ChildProcess;
  /** Everything the process logged so far. */
  log(): string;
  readonly exited: Promise<void>;
}

before(async () => {
  node = await startLitecoind({ funded: true });
  engines = new StoreEngines();
  // A few thousand txs over ~200 blocks: an initial load long enough to kill the writer in its middle.
  await minePaymentChain(node, 25, 20, 170);
});

after(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await node?.stop();
  await engines?.close();
});

function startIndexer(storeUrl: string, env: Record<string, string> = {}): Indexer {
  const child = spawnIndexProcess(storeUrl, node.rpcUrl, env);
  children.push(child);
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { child, log: () => text, exited: new Promise((resolve) => child.once('exit', () => resolve())) };
}

/** `what` may be a function: what the failure message says is read when it fails (e.g. a process's log). */
async function until(what: string | (() => string), check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started >= timeoutMs) assert.fail(`timed out waiting: ${typeof what === 'string' ? what : what()}`);
    await delay(20);
  }
  return Date.now() - started;
}

async function tipHeight(store: ChainStore): Promise<number> {
  return (await store.network('LTCTEST').getTip())?.height ?? -1;
}

/** The backend pids holding the network's writer lock (at most one, or the lock means nothing). */
async function lockHolders(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid = $2 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
      [LOCK_NAMESPACE, networkCode('LTCTEST')],
    );
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/**
 * The reference index of the node's chain now. `without`: tables to leave out (the sync status records the height at
 * which a sync became ready, so an index that followed blocks after its sync differs there from a fresh one).
 */
async function uninterruptedDigest(without: readonly string[] = [], engine: 'postgres' | 'sqlite' = 'postgres'): Promise<string> {
  const reference = await engines.create(engine);
  const indexer = new NetworkIndexer({ params, source: new RpcChainSource(node.node), store: reference.store.network('LTCTEST'), bus: new MemoryEventBus(), logger: silentLogger });
  await indexer.syncOnce();
  return reference.digest(without);
}

async function stop(indexer: Indexer): Promise<void> {
  indexer.child.kill('SIGTERM');
  await indexer.exited;
  assert.equal(indexer.child.exitCode, 0, `SIGTERM stops the indexer cleanly: ${indexer.log().slice(-400)}`);
}

describe('standby indexers', () => {
  for (const engine of ['postgres', 'sqlite'] as const) {
    it(`${engine}: a second indexer stands by, takes over within seconds when the writer is killed mid-sync, and ends identical`, async (t) => {
      const target = await engines.create(engine);
      const height = await node.rpc.call<number>('getblockcount');
      // The leader pauses before each build step, so the kill lands in the middle of the initial sync.
      const leader = startIndexer(target.url, { OUTPOINT_TEST_BUILD_STEP_DELAY_MS: '700' });
      await until(() => `the leader writes; its log: ${leader.log().slice(-1500)}`, async () => (await tipHeight(target.store)) >= 0);
      const standby = startIndexer(target.url);
      await until('the second indexer says it stands by', () => standby.log().includes('standing by'), 30_000);
      assert.equal(standby.child.exitCode, null, 'the second indexer waits instead of failing');
      const bulkStep = async (): Promise<number | null> => (await target.store.network('LTCTEST').getBulkLoad())?.step ?? null;
      await until('the index build is under way', async () => ((await bulkStep()) ?? 0) >= 2);
      const killedAt = await bulkStep();
      leader.child.kill('SIGKILL');
      await leader.exited;
      assert.ok(killedAt !== null && (await bulkStep()) !== null, `the leader was killed mid-sync (after build step ${killedAt})`);
      const takeoverMs = await until('the standby takes over', async () => (await bulkStep()) !== killedAt || standby.log().includes('took over'), 15_000);
      assert.ok(takeoverMs < 10_000, `took over in ${takeoverMs} ms`);
      t.diagnostic(`the standby wrote its first batch ${takeoverMs} ms after the kill`);
      await until('the standby finishes the sync', async () => (await tipHeight(target.store)) === height && (await target.store.network('LTCTEST').getBulkLoad()) === null, 90_000);
      // Said once its first whole pass as the writer is done.
      await until('the standby says it took over', () => /took over as the writer/.test(standby.log()), 15_000);
      if (engine === 'postgres') assert.equal((await lockHolders(target.url)).length, 1, 'one session holds the lock');
      await stop(standby);
      assert.equal(await target.digest(), await uninterruptedDigest([], engine));
    });
  }

  it('postgres: a writer whose lock session is ended stops writing through it; the index stays exact while the lock moves', async () => {
    const target = await engines.create('postgres');
    const first = startIndexer(target.url);
    const height = await node.rpc.call<number>('getblockcount');
    await until('the first indexer catches up', async () => (await tipHeight(target.store)) === height && (await target.store.network('LTCTEST').getBulkLoad()) === null, 90_000);
    const second = startIndexer(target.url);
    await until('the second indexer stands by', () => second.log().includes('standing by'), 30_000);
    const [holder] = await lockHolders(target.url);
    assert.ok(holder !== undefined);
    // The database ends the writer's session (as after a network cut noticed by keepalives, or an operator's kill).
    const admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend($1)', [holder]);
    await admin.end();
    // Writes keep coming: blocks. Whoever holds the lock now indexes them; nobody writes without it. No payments:
    // a tx the writer happens to see in the mempool before its block keeps its first-seen time (txs.first_seen),
    // which the reference index, built from the blocks alone, cannot have, so the digests would differ by timing.
    for (let round = 0; round < 3; round++) await node.mine(1);
    const finalHeight = await node.rpc.call<number>('getblockcount');
    await until('the new blocks are indexed', async () => (await tipHeight(target.store)) === finalHeight, 30_000);
    const holders = await lockHolders(target.url);
    assert.equal(holders.length, 1, 'one session holds the lock');
    assert.notEqual(holders[0], holder, 'a new session holds it: the ended one wrote nothing more');
    await stop(first);
    await stop(second);
    // The realtime event log is what the serving writer published (the reference indexer publishes to memory only).
    const notIndex = ['sync_status', 'event_log', 'event_log_state'];
    assert.equal(await target.digest(notIndex), await uninterruptedDigest(notIndex));
  });
});
