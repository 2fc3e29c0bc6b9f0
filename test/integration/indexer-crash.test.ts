/**
 * Crash safety: `outpoint index` is killed with SIGKILL at several points of an initial sync (while loading blocks,
 * between the build steps, while catching up incrementally), then restarted; the index it ends with must be identical
 * (a digest of every table) to the one an uninterrupted run builds from the same node. Both store engines.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { getNetworkParams } from '../../src/chains/networks.js';
import { MemoryEventBus, silentLogger, type ChainStore } from '../../src/core/index.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { spawnIndexProcess } from '../helpers/index-process.js';
import { startLitecoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, testEngines, type EngineName } from '../helpers/store-engines.js';

const params = getNetworkParams('LTCTEST', 'regtest');
let node: RegtestNode;
let engines: StoreEngines;

before(async () => {
  node = await startLitecoind({ funded: true });
  engines = new StoreEngines();
  // A chain with a few thousand txs of mixed shapes, then empty blocks: long enough to be killed mid-sync.
  for (let round = 0; round < 40; round++) {
    const outputs: Record<string, string> = {};
    for (let i = 0; i < 20; i++) outputs[await node.newAddress(i % 3 === 0 ? 'legacy' : i % 3 === 1 ? 'p2sh-segwit' : 'bech32')] = '0.001';
    await node.wallet.call('sendmany', ['', outputs]);
    await node.send(await node.newAddress('bech32'), '0.5');
    await node.mine(1);
  }
  // Stays below height 432, where Litecoin regtest activates MWEB (see the MWEB test for that).
  await node.mine(250);
});

after(async () => {
  await node?.stop();
  await engines?.close();
});

function startIndexProcess(storeUrl: string, env: Record<string, string> = {}): ChildProcess {
  const child = spawnIndexProcess(storeUrl, node.rpcUrl, env);
  child.stdout?.resume();
  return child;
}

async function tipHeight(store: ChainStore): Promise<number> {
  return (await store.network('LTCTEST').getTip())?.height ?? -1;
}

/** The last build step done (0: still loading), or null when no initial load is in progress. */
async function bulkStep(store: ChainStore): Promise<number | null> {
  return (await store.network('LTCTEST').getBulkLoad())?.step ?? null;
}

/** Starts `outpoint index`, waits until `ready` says so (or 60 s), kills it with SIGKILL; returns the stderr. */
async function killWhen(storeUrl: string, ready: () => Promise<boolean>, env: Record<string, string> = {}): Promise<string> {
  const child = startIndexProcess(storeUrl, env);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.exitCode === null && !(await ready())) await delay(5);
  child.kill('SIGKILL');
  await exited;
  return stderr;
}

async function uninterruptedDigest(engine: EngineName): Promise<string> {
  const reference = await engines.create(engine);
  const indexer = new NetworkIndexer({
    params,
    source: new RpcChainSource(node.node),
    store: reference.store.network('LTCTEST'),
    bus: new MemoryEventBus(),
    logger: silentLogger,
  });
  await indexer.syncOnce();
  return reference.digest();
}

for (const engine of testEngines()) {
  describe(`kill -9 during initial sync (${engine})`, () => {
    it('killed while loading, between build steps and while catching up: resumes and ends identical to an uninterrupted run', async () => {
      const target = await engines.create(engine);
      const observer = target.store;
      // The node's height now: the other engine's test may have mined blocks already.
      const loadedHeight = await node.rpc.call<number>('getblockcount');
      // Loading: kills at several heights (each batch is atomic with the tip marker).
      let killedLoading = 0;
      for (const fraction of [0.15, 0.4, 0.65]) {
        const stderr = await killWhen(target.url, async () => (await tipHeight(observer)) >= fraction * loadedHeight);
        if ((await bulkStep(observer)) === 0 && (await tipHeight(observer)) < loadedHeight) killedLoading++;
        assert.ok((await tipHeight(observer)) >= 0 || fraction < 0.5, `indexer made progress before the kill: ${stderr.slice(-500)}`);
      }
      assert.ok(killedLoading >= 2, `at least two kills landed while loading (got ${killedLoading})`);
      // Building: the process waits before each step, so a kill lands after step k is committed and before k + 1 runs.
      const killedAfter = new Set<number>();
      for (const k of [0, 1, 3, 5]) {
        await killWhen(target.url, async () => ((await bulkStep(observer)) ?? Infinity) >= k && (await tipHeight(observer)) === loadedHeight,
          { OUTPOINT_TEST_BUILD_STEP_DELAY_MS: '400' });
        const step = await bulkStep(observer);
        if (step !== null) killedAfter.add(step);
      }
      assert.ok(killedAfter.size >= 3, `kills landed after several build steps (${[...killedAfter].join(', ')})`);
      // Catching up: blocks mined after the load are followed one block a batch (each engine's test mines at most 12:
      // the chain must stay below height 432, where Litecoin regtest activates MWEB).
      let killedCatchingUp = 0;
      for (let attempt = 0; attempt < 3 && killedCatchingUp === 0; attempt++) {
        for (let round = 0; round < 4; round++) {
          await node.send(await node.newAddress(round % 2 === 0 ? 'bech32' : 'legacy'), '0.01');
          await node.mine(1);
        }
        const newTip = await node.rpc.call<number>('getblockcount');
        const before = await tipHeight(observer);
        await killWhen(target.url, async () => (await bulkStep(observer)) === null && (await tipHeight(observer)) > before,
          { OUTPOINT_NETWORKS_LTCTEST_SYNC_BATCH_TXS: '1' });
        const after = await tipHeight(observer);
        if ((await bulkStep(observer)) === null && after > before && after < newTip) killedCatchingUp++;
      }
      const finalHeight = await node.rpc.call<number>('getblockcount');
      assert.equal(killedCatchingUp, 1, 'a kill landed while catching up');
      // Restart and let it finish.
      const child = startIndexProcess(target.url);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const deadline = Date.now() + 120_000;
      while ((await tipHeight(observer)) < finalHeight) {
        assert.ok(Date.now() < deadline, 'the restarted indexer reaches the tip');
        await delay(50);
      }
      child.kill('SIGTERM');
      await exited;
      assert.equal(child.exitCode, 0, 'SIGTERM stops the indexer cleanly');
      assert.equal(await bulkStep(observer), null);
      assert.equal(await target.digest(), await uninterruptedDigest(engine));
    });
  });
}

if (testEngines().length === 2) {
  describe('both engines', () => {
    it('build identical indexes of the same chain (script keys compared by their scripts: each database has its own salt)', async () => {
      // Both now, on the node's final chain (each kill test above mined blocks of its own).
      assert.equal(await uninterruptedDigest('sqlite'), await uninterruptedDigest('postgres'));
    });
  });
}
