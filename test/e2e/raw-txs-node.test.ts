/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are checked field by field */
/**
 * `[store] raw_txs = "node"` end to end: litecoind regtest → per engine, one index that stores raw txs and one that
 * does not, each behind its own app (v2 and v3). The node-mode app reads raw bytes from the node and must answer
 * byte for byte like the store-mode app; while the node is down its raw routes answer 503 with Retry-After in the
 * spec's shapes and everything else answers; after a reorg the orphaned tx is still shown (its block from the node).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { MemoryEventBus, silentLogger, type AccountStore, type NetworkId, type NetworkReader } from '../../src/core/index.js';
import type { NetworkParams } from '../../src/chains/addressing.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { NodeClient } from '../../src/node/rpc/node-client.js';
import { NodeRawTxSource } from '../../src/node/node-raw-tx-source.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { startLitecoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';
import { get } from './v2-fixture.js';
import { call, params, sameAccountIn, v3App } from './v3-fixture.js';

const N = 'LTCTEST';
let node: RegtestNode;
let engines: StoreEngines;
let source: NodeRawTxSource;
const clock = { seconds: Math.floor(Date.now() / 1000) };
interface Side {
  readonly indexer: NetworkIndexer;
  readonly reader: NetworkReader;
  readonly accounts: AccountStore;
  app: FastifyInstance;
}
const pairs: { engine: string; store: Side; node: Side; key: string }[] = [];
let addr: string;
let confirmedTxid: string;
let mempoolTxid: string;

function rawSource(): NodeRawTxSource {
  // The production client's settings: one retry, so a node that is down answers 503 within a second or two.
  return new NodeRawTxSource(new NodeClient(node.client({ url: node.rpcUrl, retries: 1, timeoutMs: 5_000 })), { network: N, features: params.features });
}

/** An app over `reader`; with a source, raw txs the store lacks come from it. */
function appFor(s: Pick<Side, 'reader' | 'accounts'>, rawTxs: NodeRawTxSource | null, withNode = true): Promise<FastifyInstance> {
  const networks = new Map<NetworkId, { params: NetworkParams; reader: NetworkReader; rawTxs?: NodeRawTxSource }>([
    [params.id, { params, reader: s.reader, ...(rawTxs ? { rawTxs } : {}) }],
  ]);
  return v3App(withNode ? node : null, s.reader, s.accounts, { networks });
}

async function side(engine: 'sqlite' | 'postgres', mode: 'store' | 'node'): Promise<Side> {
  const test = await engines.create(engine, { rawTxs: mode });
  const store = test.store.network(params.id);
  const indexer = new NetworkIndexer({ params, source: new RpcChainSource(node.node), store, bus: new MemoryEventBus(), logger: silentLogger, now: () => clock.seconds });
  const s = { indexer, reader: store, accounts: test.store.accounts() };
  return { ...s, app: await appFor(s, mode === 'node' ? source : null) };
}

async function sync(): Promise<void> {
  clock.seconds = Math.floor(Date.now() / 1000);
  for (const p of pairs) for (const s of [p.store, p.node]) await s.indexer.syncOnce();
}

/** Both modes of each engine answer alike; returns the node mode's answer. */
async function same(url: string, v3 = false): Promise<any> {
  let last: any;
  for (const p of pairs) {
    const [a, b] = v3 ? [await call(p.store.app, url, p.key), await call(p.node.app, url, p.key)] : [await get(p.store.app, url), await get(p.node.app, url)];
    assert.equal(b.status, a.status, `${url} [${p.engine}]`);
    assert.equal(JSON.stringify(b.body), JSON.stringify(a.body), `${url} [${p.engine}]: node mode answers like store mode`);
    last = b;
  }
  return last;
}

before(async () => {
  node = await startLitecoind({ funded: true });
  engines = new StoreEngines();
  source = rawSource();
  for (const engine of testEngines()) {
    const store = await side(engine, 'store');
    const nodeSide = await side(engine, 'node');
    const { key } = await sameAccountIn([store.accounts, nodeSide.accounts], 'raw@x.io', 'raw', 1_000_000);
    pairs.push({ engine, store, node: nodeSide, key });
  }
  addr = await node.newAddress('bech32');
  for (let i = 0; i < 3; i++) await node.send(addr, '1.25');
  confirmedTxid = await node.send(await node.newAddress('legacy'), '0.5');
  await node.mine(1);
  mempoolTxid = await node.send(addr, '0.75');
  await sync();
});

after(async () => {
  for (const p of pairs) for (const s of [p.store, p.node]) await s.app.close();
  await engines?.close();
  await node?.stop();
});

describe('raw_txs = "node"', () => {
  it('get_tx, tx display, inputs, outputs, blocks, address pages and v3 answer byte for byte like "store"', async () => {
    const block = (await node.rpc.call<string>('getbestblockhash'));
    const txids: string[] = (await node.rpc.call<{ tx: string[] }>('getblock', [block, 1])).tx;
    for (const txid of [...txids, mempoolTxid]) {
      await same(`/api/v2/get_tx/${N}/${txid}`);
      await same(`/api/v2/tx/${N}/${txid}`);
      await same(`/api/v2/get_tx_inputs/${N}/${txid}`);
      await same(`/api/v2/get_tx_outputs/${N}/${txid}`);
      await same(`/api/v3/transaction/${N}/${txid}`, true);
    }
    assert.equal((await same(`/api/v2/get_tx/${N}/${confirmedTxid}`)).body.data.tx_hex, await node.rpc.call<string>('getrawtransaction', [confirmedTxid, false, block]));
    await same(`/api/v2/block/${N}/${block}`);
    await same(`/api/v2/address/${N}/${addr}`);
    await same(`/api/v2/get_tx_unspent/${N}/${addr}`);
    const unspent = await same(`/api/v3/unspent_outputs/${N}/${addr}/1`, true);
    assert.ok(unspent.body.data.outputs.length >= 2, 'confirmed and mempool outputs');
    assert.ok(unspent.body.data.outputs.every((o: any) => o.tx_hex.length > 100));
    await same(`/api/v3/latest_blocks_summary/${N}`, true);
  });

  it('while the node is down: raw routes answer 503 with Retry-After, everything else answers; then answers again', async () => {
    const before = await get(pairs[0]!.node.app, `/api/v2/get_tx/${N}/${confirmedTxid}`);
    // A tx the cache has not seen: confirmed in a new block, then the cache is bypassed by a fresh source.
    await node.halt();
    try {
      for (const p of pairs) {
        // A fresh source: nothing cached, so every raw tx must come from the node.
        const app = await appFor(p.node, rawSource(), false);
        try {
          const v2 = await get(app, `/api/v2/get_tx/${N}/${confirmedTxid}`);
          assert.equal(v2.status, 503, `[${p.engine}] get_tx`);
          assert.ok(Number(v2.headers['retry-after']) > 0, 'Retry-After');
          assert.equal(v2.body.status, 'fail');
          assert.match(v2.body.data.request, /node that keeps raw transactions cannot be reached/);
          const display = await get(app, `/api/v2/tx/${N}/${confirmedTxid}`);
          assert.deepEqual([display.status, display.body.code, display.body.status], [503, 503, 'fail'], 'shape B');
          const v3 = await call(app, `/api/v3/unspent_outputs/${N}/${addr}/1`, p.key);
          assert.equal(v3.status, 503);
          assert.ok(Number(v3.headers['retry-after']) > 0);
          assert.match(v3.body.data.error_message, /cannot be reached/);
          // No raw bytes needed: these answer.
          assert.equal((await get(app, `/api/v2/get_address_balance/${N}/${addr}`)).status, 200);
          assert.equal((await get(app, `/api/v2/is_tx_confirmed/${N}/${confirmedTxid}`)).body.data.is_confirmed, true);
          assert.equal((await get(app, `/api/v2/get_tx_unspent/${N}/${addr}`)).status, 200);
          assert.equal((await get(app, `/api/v2/address/${N}/${addr}`)).status, 200);
          assert.equal((await call(app, `/api/v3/balance/${N}/${addr}`, p.key)).status, 200);
          assert.equal((await get(app, `/api/v2/get_tx/${N}/${mempoolTxid}`)).status, 200, 'a mempool tx keeps its raw bytes in the store');
          const summary = await call(app, `/api/v3/latest_blocks_summary/${N}`, p.key);
          assert.equal(summary.status, 200, 'blocks are listed, their miners unknown');
        } finally {
          await app.close();
        }
      }
      assert.equal((await get(pairs[0]!.node.app, `/api/v2/get_tx/${N}/${confirmedTxid}`)).status, 200, 'the cache still serves a tx it holds');
    } finally {
      await node.resume();
    }
    assert.deepEqual((await get(pairs[0]!.node.app, `/api/v2/get_tx/${N}/${confirmedTxid}`)).body, before.body);
  });

  it('a reorg: the orphaned block\'s txs are shown (from the node) and return to the mempool like with "store"', async () => {
    const paid = await node.send(addr, '0.3');
    const [orphan] = await node.mine(1);
    await sync();
    await node.rpc.call('invalidateblock', [orphan]);
    await node.mine(1, await node.newAddress('legacy'));
    await sync();
    // The node put it back in its mempool and mined it again in the replacing block.
    const again = await same(`/api/v2/tx/${N}/${paid}`);
    assert.equal(again.body.data.confirmations, 1);
    assert.notEqual(again.body.data.blockhash, orphan);
    // The orphaned coinbase is in no mempool: node mode reads it from the orphaned block, which the node keeps.
    const coinbase = (await node.rpc.call<{ tx: string[] }>('getblock', [orphan, 1])).tx[0]!;
    const orphaned = await same(`/api/v2/tx/${N}/${coinbase}`);
    assert.deepEqual([orphaned.status, orphaned.body.data.confirmations], [200, 0]);
    assert.equal((await same(`/api/v2/get_tx/${N}/${coinbase}`)).body.data.tx_hex, await node.rpc.call<string>('getrawtransaction', [coinbase, false, orphan]));
    await same(`/api/v2/get_tx/${N}/${paid}`);
    await same(`/api/v3/unspent_outputs/${N}/${addr}/1`, true);
  });
});
