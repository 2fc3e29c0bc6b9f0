/**
 * Crash safety: `outpoint index` is killed with SIGKILL at several points of an initial sync, then
 * restarted; the index it ends with must be identical (a digest of every table) to the one an
 * uninterrupted run builds from the same node. Both store engines.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { getNetworkParams } from '../../src/chains/networks.js';
import { MemoryEventBus, silentLogger, type ChainStore } from '../../src/core/index.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { startLitecoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, type EngineName } from '../helpers/store-engines.js';

const params = getNetworkParams('LTCTEST', 'regtest');
let node: RegtestNode;
let engines: StoreEngines;
let nodeHeight = 0;

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
  nodeHeight = await node.rpc.call<number>('getblockcount');
});

after(async () => {
  await node?.stop();
  await engines?.close();
});

function startIndexProcess(storeUrl: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', 'index'], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: {
      ...process.env,
      OUTPOINT_STORE_URL: storeUrl,
      OUTPOINT_NETWORKS_LTCTEST_CHAIN: 'regtest',
      OUTPOINT_NETWORKS_LTCTEST_RPC_URL: node.rpcUrl,
      OUTPOINT_NETWORKS_LTCTEST_POLL_MS: '100',
      // Small batches: many commits, so kills land between and inside them.
      OUTPOINT_NETWORKS_LTCTEST_SYNC_BATCH_TXS: '40',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

async function tipHeight(store: ChainStore): Promise<number> {
  return (await store.network('LTCTEST').getTip())?.height ?? -1;
}

const references = new Map<EngineName, Promise<string>>();

/** The digest of an uninterrupted run's index (one run per engine). */
function uninterruptedDigest(engine: EngineName): Promise<string> {
  let digest = references.get(engine);
  if (!digest) {
    digest = indexUninterrupted(engine);
    references.set(engine, digest);
  }
  return digest;
}

async function indexUninterrupted(engine: EngineName): Promise<string> {
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

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`kill -9 during initial sync (${engine})`, () => {
    it('resumes and ends identical to an uninterrupted run', async () => {
      const target = await engines.create(engine);
      const observer = target.store;
      let killedMidSync = 0;
      for (const fraction of [0.15, 0.4, 0.65, 0.9]) {
        const child = startIndexProcess(target.url);
        let stderr = '';
        child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        const deadline = Date.now() + 60_000;
        let height = -1;
        while (Date.now() < deadline) {
          height = await tipHeight(observer);
          if (height >= fraction * nodeHeight) break;
          await delay(5);
        }
        child.kill('SIGKILL');
        await exited;
        const after = await tipHeight(observer);
        if (after < nodeHeight) killedMidSync++;
        assert.ok(height >= 0 || after >= 0 || fraction < 0.5, `indexer made progress before the kill: ${stderr.slice(-500)}`);
      }
      assert.ok(killedMidSync >= 2, `at least two kills landed mid-sync (got ${killedMidSync})`);
      // Restart and let it finish.
      const child = startIndexProcess(target.url);
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const deadline = Date.now() + 120_000;
      while ((await tipHeight(observer)) < nodeHeight) {
        assert.ok(Date.now() < deadline, 'the restarted indexer reaches the tip');
        await delay(50);
      }
      child.kill('SIGTERM');
      await exited;
      assert.equal(child.exitCode, 0, 'SIGTERM stops the indexer cleanly');
      assert.equal(await target.digest(), await uninterruptedDigest(engine));
    });
  });
}

describe('both engines', () => {
  it('build identical indexes (script keys compared by their scripts: each database has its own salt)', async () => {
    assert.equal(await uninterruptedDigest('sqlite'), await uninterruptedDigest('postgres'));
  });
});
