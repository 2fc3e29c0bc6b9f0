/**
 * The PostgreSQL initial load's worker thread (src/main/stores/postgres-worker-loader.ts): batches encoded on it and
 * written on the indexer's thread end in exactly the tables an inline load writes (also with raw txs left to the node,
 * and with script keys narrowed until they collide, and with memory reused between batches); the worker encodes a batch while the one before is written; and a
 * write that fails reaches the caller as a StoreError from the next load() or close(), with nothing of it written.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { getNetworkParams } from '../../src/chains/networks.js';
import type { ChainTip } from '../../src/core/index.js';
import { StoreError } from '../../src/core/domain/errors.js';
import { inlineLoader, type RawBlockLoader } from '../../src/indexer/initial-load.js';
import { postgresWorkerLoader, type EncodedBatchWriter } from '../../src/main/stores/postgres-worker-loader.js';
import { NodeRawTxSource } from '../../src/node/node-raw-tx-source.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import type { ChainStoreOptions } from '../../src/store/common/schema/store-options.js';
import type { EncodedBulkBatch } from '../../src/store/postgres/chain/postgres-bulk-encode.js';
import type { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { startLitecoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines } from '../helpers/store-engines.js';

const params = getNetworkParams('LTCTEST', 'regtest');
let node: RegtestNode;
let engines: StoreEngines;
let raws: Uint8Array[] = [];

before(async () => {
  node = await startLitecoind({ funded: true });
  for (let i = 0; i < 8; i++) {
    // Spends across batches (the funded coins are older than the first batch of 25) and within one.
    await node.send(await node.newAddress(i % 2 ? 'legacy' : 'bech32'), '0.25');
    await node.send(await node.newAddress('p2sh-segwit'), '0.1');
    await node.mine(1);
  }
  const source = new RpcChainSource(node.node);
  const height = await source.getBlockCount();
  raws = await source.getRawBlocks(await source.getBlockHashes(0, height + 1));
  engines = new StoreEngines();
});

after(async () => {
  await node?.stop();
  await engines?.close();
});

async function loadAll(loader: RawBlockLoader): Promise<void> {
  try {
    for (let h = 0; h < raws.length; h += 25) await loader.load(h, raws.slice(h, h + 25));
  } finally {
    await loader.close();
  }
}

/** A digest of every table after a whole load and build, through the worker or inline. */
async function loadWith(viaWorker: boolean, options: ChainStoreOptions = {}, heldTxs?: number, poolMinBytes?: number): Promise<string> {
  const test = await engines.create('postgres', options);
  const store = test.store as PostgresStore;
  const net = store.postgresNetwork('LTCTEST');
  await net.beginBulkLoad(1);
  await loadAll(viaWorker
    ? postgresWorkerLoader(net, { network: 'LTCTEST', chain: 'regtest', ...(options.rawTxs ? { rawTxs: options.rawTxs } : {}), ...(heldTxs ? { heldTxs } : {}),
      ...(poolMinBytes !== undefined ? { poolMinBytes } : {}) })
    : inlineLoader(net, params.features));
  assert.equal((await net.getTip())?.height, raws.length - 1);
  // With raw_txs = "node", colliding keys are settled with raw txs from the node.
  await net.finishBulkLoad(undefined, options.rawTxs === 'node' ? new NodeRawTxSource(node.node, { network: 'LTCTEST', features: params.features }) : undefined);
  // The sync status and the salt differ between any two stores; the digest names script keys by their bytes.
  return test.digest(['meta', 'sync_status']);
}

test('a load encoded on the worker writes what an inline load writes', async () => {
  assert.ok(raws.length > 100, 'several batches');
  assert.equal(await loadWith(true), await loadWith(false));
});

test('memory reused batch after batch (raw blocks back from the worker, payloads back once written): the same tables', async () => {
  // Every buffer pooled, however small: from the second batch on the raw blocks come in a buffer sent back, from the
  // third on the payloads are written into those of a batch already written (buffer-pool.ts).
  const inline = await loadWith(false);
  assert.equal(await loadWith(true, {}, undefined, 0), inline);
  // With outputs written mid-load too (their payloads among those reused).
  assert.equal(await loadWith(true, {}, 30, 0), inline);
});

test('held outputs: spent while held or after they are written, the tables are the same', async () => {
  // 30 txs held at most: the oldest batches' outputs are written mid-load, so later spends of them are pending.
  assert.equal(await loadWith(true, {}, 30), await loadWith(false));
});

test('a load stopped while outputs are held rewinds to its last block written whole and loads the rest again', async () => {
  const reference = await loadWith(false);
  const test = await engines.create('postgres');
  const net = (test.store as PostgresStore).postgresNetwork('LTCTEST');
  await net.beginBulkLoad(1);
  const data = { network: 'LTCTEST' as const, chain: 'regtest' as const, heldTxs: 30 };
  // As a kill after the last batch's write: the outputs the worker held are never written.
  const killed = postgresWorkerLoader({ ...bound(net), loadRelease: () => Promise.reject(new Error('killed')) }, data);
  await assert.rejects(loadAll(killed), /killed/);
  const loaded = (await net.getTip())!.height;
  assert.equal(loaded, raws.length - 1);
  await net.resumeBulkLoad();
  const rewound = (await net.getTip())!.height;
  assert.ok(rewound < loaded && rewound > 0, `rewound from ${loaded} to ${rewound}: the blocks whose outputs were held`);
  const again = postgresWorkerLoader(net, data);
  try {
    for (let h = rewound + 1; h < raws.length; h += 25) await again.load(h, raws.slice(h, h + 25));
  } finally {
    await again.close();
  }
  await net.finishBulkLoad();
  assert.equal(await test.digest(['meta', 'sync_status']), reference);
});

test('the last batch writes every output still held: nothing is left to the end of the load', async () => {
  const reference = await loadWith(false);
  const test = await engines.create('postgres');
  const net = (test.store as PostgresStore).postgresNetwork('LTCTEST');
  await net.beginBulkLoad(1);
  const loader = postgresWorkerLoader({ ...bound(net), loadRelease: () => Promise.reject(new Error('no release was due')) },
    { network: 'LTCTEST', chain: 'regtest', heldTxs: 30 });
  try {
    for (let h = 0; h < raws.length; h += 25) await loader.load(h, raws.slice(h, h + 25), h + 25 >= raws.length);
  } finally {
    await loader.close();
  }
  await net.finishBulkLoad();
  assert.equal(await test.digest(['meta', 'sync_status']), reference);
});

test('a batch from an encoder whose held outputs are out of step with the store is refused', async () => {
  const test = await engines.create('postgres');
  const net = (test.store as PostgresStore).postgresNetwork('LTCTEST');
  await net.beginBulkLoad(1);
  const data = { network: 'LTCTEST' as const, chain: 'regtest' as const, heldTxs: 30 };
  const first = postgresWorkerLoader({ ...bound(net), loadRelease: () => Promise.reject(new Error('killed')) }, data);
  await assert.rejects(async () => {
    try {
      await first.load(0, raws.slice(0, 25));
    } finally {
      await first.close();
    }
  }, /killed/);
  // Without the rewind, a new worker (holding nothing) would write from the tip on as if every output were written.
  const second = postgresWorkerLoader(net, data);
  const outOfStep = (e: unknown): boolean => e instanceof StoreError && /held from tx/.test(e.message);
  try {
    await second.load(25, raws.slice(25, 50));
  } finally {
    await assert.rejects(second.close(), outOfStep);
  }
  assert.equal((await net.getTip())?.height, 24);
});

/** The store's loader methods as a plain object (to replace one of them). */
function bound(net: EncodedBatchWriter): EncodedBatchWriter {
  return { bulkEncoding: () => net.bulkEncoding(), loadEncoded: (b) => net.loadEncoded(b), loadRelease: (r) => net.loadRelease(r) };
}

test('the same with raw txs left to the node and script keys that collide', async () => {
  const options: ChainStoreOptions = { rawTxs: 'node', scriptKeyBits: 6 };
  assert.equal(await loadWith(true, options), await loadWith(false, options));
});

test('the worker encodes the next batch while the server writes the one before', async () => {
  const test = await engines.create('postgres');
  const net = (test.store as PostgresStore).postgresNetwork('LTCTEST');
  await net.beginBulkLoad(1);
  let release!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  const written: number[] = [];
  const writer: EncodedBatchWriter = {
    bulkEncoding: () => net.bulkEncoding(),
    loadEncoded: async (batch: EncodedBulkBatch): Promise<ChainTip> => {
      await held;
      const tip = await net.loadEncoded(batch);
      written.push(tip.height);
      return tip;
    },
    loadRelease: (release) => net.loadRelease(release),
  };
  const loader = postgresWorkerLoader(writer, { network: 'LTCTEST', chain: 'regtest' });
  try {
    // Handed over while its write is held: the loader reports the batch's tip, the store has not written it.
    assert.equal((await loader.load(0, raws.slice(0, 25))).height, 24);
    assert.equal(await net.getTip(), null);
    // The next batch is encoded, but not handed over before the one ahead of it is written.
    let second = false;
    const next = loader.load(25, raws.slice(25, 50)).then((tip) => { second = true; return tip; });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(second, false);
    release();
    assert.equal((await next).height, 49);
    assert.deepEqual(written, [24]);
  } finally {
    await loader.close();
  }
  assert.deepEqual(written, [24, 49]);
  assert.equal((await net.getTip())?.height, 49);
});

test('a batch that does not extend the tip fails its write: the next call says so, nothing of it is written', async () => {
  const test = await engines.create('postgres');
  const net = (test.store as PostgresStore).postgresNetwork('LTCTEST');
  await net.beginBulkLoad(1);
  const fails = (e: unknown): boolean => e instanceof StoreError && /does not extend tip/.test(e.message);
  const loader = postgresWorkerLoader(net, { network: 'LTCTEST', chain: 'regtest' });
  try {
    await loader.load(5, raws.slice(5, 6));
    await assert.rejects(loader.load(6, raws.slice(6, 7)), fails);
  } finally {
    await assert.rejects(loader.close(), fails);
  }
  assert.equal(await net.getTip(), null);
  // A new loader (as the indexer's next attempt makes) loads from the tip written.
  const again = postgresWorkerLoader(net, { network: 'LTCTEST', chain: 'regtest' });
  try {
    assert.equal((await again.load(0, raws.slice(0, 3))).height, 2);
  } finally {
    await again.close();
  }
  assert.equal((await net.getTip())?.height, 2);
});

test('a batch the worker cannot parse rejects its own load() with a StoreError', async () => {
  const test = await engines.create('postgres');
  const net = (test.store as PostgresStore).postgresNetwork('LTCTEST');
  await net.beginBulkLoad(1);
  const loader = postgresWorkerLoader(net, { network: 'LTCTEST', chain: 'regtest' });
  try {
    await assert.rejects(loader.load(0, [raws[0]!.subarray(0, 100)]), StoreError);
    // The worker lives on.
    assert.equal((await loader.load(0, raws.slice(0, 2))).height, 1);
  } finally {
    await loader.close();
  }
  assert.equal((await net.getTip())?.height, 1);
});
