/**
 * The SQLite initial load's worker thread (src/main/stores/worker-loader.ts): blocks appended through it end in exactly the
 * tables an inline load on the indexer's thread writes, also when the raw blocks' buffers come back and carry later
 * batches, and a failure inside the worker reaches the caller as a StoreError instead of a crash.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { getNetworkParams } from '../../src/chains/networks.js';
import { StoreError } from '../../src/core/domain/errors.js';
import { inlineLoader } from '../../src/indexer/initial-load.js';
import { sqliteWorkerLoader } from '../../src/main/stores/worker-loader.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startLitecoind, type RegtestNode } from '../helpers/regtest-node.js';

const params = getNetworkParams('LTCTEST', 'regtest');
let node: RegtestNode;
let dir: string;
let raws: Uint8Array[] = [];

before(async () => {
  node = await startLitecoind({ funded: true });
  for (let i = 0; i < 8; i++) {
    await node.send(await node.newAddress(i % 2 ? 'legacy' : 'bech32'), '0.25');
    await node.mine(1);
  }
  const source = new RpcChainSource(node.node);
  const height = await source.getBlockCount();
  raws = await source.getRawBlocks(await source.getBlockHashes(0, height + 1));
  dir = mkdtempSync(join(tmpdir(), 'outpoint-load-worker-'));
});

after(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `poolMinBytes` (worker only): 0 makes every batch after the first reuse a raw-block buffer the worker sent back. */
async function loadWith(name: string, viaWorker: boolean, poolMinBytes?: number): Promise<Record<string, string[]>> {
  const path = join(dir, `${name}.db`);
  const store = new SqliteStore({ path });
  await store.migrate();
  const net = store.network('LTCTEST');
  await net.beginBulkLoad(1);
  const loader = viaWorker
    ? sqliteWorkerLoader({ path, network: 'LTCTEST', chain: 'regtest', ...(poolMinBytes === undefined ? {} : { poolMinBytes }) })
    : inlineLoader(net, params.features);
  try {
    for (let h = 0; h < raws.length; h += 25) await loader.load(h, raws.slice(h, h + 25));
  } finally {
    await loader.close();
  }
  assert.equal((await net.getTip())?.height, raws.length - 1);
  await net.finishBulkLoad();
  // Script keys depend on each database's salt: every key is shown as its script's bytes.
  const bytesOf = new Map((store.connection.prepare('SELECT key, script FROM scripts_ltctest').all() as { key: bigint; script: Buffer }[])
    .map((r) => [String(r.key), r.script.toString('hex')]));
  const tables: Record<string, string[]> = {};
  for (const t of ['blocks_ltctest', 'txs_ltctest', 'outputs_ltctest', 'history_ltctest', 'scripts_ltctest', 'tips']) {
    tables[t] = (store.connection.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[]).map((row) => JSON.stringify(row, (k, v: unknown) => {
      if ((k === 'script' && t !== 'scripts_ltctest') || k === 'key') return bytesOf.get(String(v));
      return typeof v === 'bigint' ? String(v) : v;
    })).sort();
  }
  await store.close();
  return tables;
}

test('a worker-thread load writes what an inline load writes', async () => {
  const inline = await loadWith('inline', false);
  const worker = await loadWith('worker', true);
  assert.ok(inline['txs_ltctest']!.length > raws.length, 'txs beyond the coinbases');
  assert.ok(inline['history_ltctest']!.length > 0);
  assert.deepEqual(worker, inline);
});

test('a load whose raw-block buffers all come back and carry later batches writes the same tables', async () => {
  // Batches of 25 blocks differ in size: a later, smaller one is packed into an earlier one's larger buffer, whose
  // tail still holds the earlier batch's bytes (only the packed length may be read).
  assert.deepEqual(await loadWith('pooled', true, 0), await loadWith('inline-again', false));
});

test('a batch the worker cannot append rejects with the store\'s error', async () => {
  const path = join(dir, 'bad.db');
  const store = new SqliteStore({ path });
  await store.migrate();
  await store.network('LTCTEST').beginBulkLoad(1);
  const loader = sqliteWorkerLoader({ path, network: 'LTCTEST', chain: 'regtest' });
  try {
    await assert.rejects(loader.load(5, raws.slice(5, 6)), (e: unknown) => e instanceof StoreError && /does not extend tip/.test(e.message));
    // The worker lives on: the right batch still loads.
    assert.equal((await loader.load(0, raws.slice(0, 3))).height, 2);
  } finally {
    await loader.close();
    await store.close();
  }
});
