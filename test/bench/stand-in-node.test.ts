/**
 * The scale benchmark's stand-in node (bench/scale/stand-in-node.ts) answers Outpoint's own node client as bitcoind
 * does: raw blocks byte for byte, batches, Core's error codes and HTTP statuses, a chain revealed up to a height and
 * extended later; and the real NetworkIndexer indexes the generated chain through it (which also proves the chain
 * valid for our store: every prevout found, no double spend) and follows it when it grows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryEventBus, RpcError, RpcUnavailableError } from '../../src/core/index.js';
import { BlockFetcher } from '../../src/indexer/block-fetcher.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { NodeClient } from '../../src/node/rpc/node-client.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { RpcClient } from '../../src/node/rpc/rpc-client.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { ChainFiles } from '../../bench/scale/block-files.js';
import { params } from '../../bench/scale/chain-params.js';
import type { TrackedAddress } from '../../bench/scale/generator-stats.js';
import { ByteSink } from '../../bench/scale/byte-sink.js';
import { writeOutputScript } from '../../bench/scale/script-kinds.js';
import type { StandInNode } from '../../bench/scale/stand-in-node.js';
import { recordingLogger } from '../helpers/recording-logger.js';
import { standInChain, type StandInChain } from '../helpers/stand-in-chain.js';

const BLOCKS = 140;
const FIRST_REVEALED = 120;
let chain: StandInChain;
let files: ChainFiles;
let node: StandInNode;
let url: string;
let rpc: RpcClient;
let client: NodeClient;
let tracked: TrackedAddress[];

before(async () => {
  chain = await standInChain({ seed: 3, blocks: BLOCKS, blockTxs: 200, trackedIds: [0, 1], node: { revealed: FIRST_REVEALED, user: 'bench', password: 'secret' } });
  ({ files, node, url, rpc, client, tracked } = chain);
});

after(async () => {
  await chain?.close();
});

describe('stand-in node', () => {
  it('answers the chain calls up to the revealed height', async () => {
    const source = new RpcChainSource(client);
    assert.equal(await source.getBlockCount(), FIRST_REVEALED);
    assert.equal(await source.getBestBlockHash(), files.hashAt(FIRST_REVEALED));
    assert.equal(await source.getBlockHashAt(5), files.hashAt(5));
    assert.equal(await source.getBlockHashAt(FIRST_REVEALED + 1), null, 'a height past the revealed tip is out of range (-8)');
    assert.deepEqual(await source.getBlockHashes(100, 3), [100, 101, 102].map((h) => files.hashAt(h)));
    const raws = await source.getRawBlocks([files.hashAt(0), files.hashAt(110)]);
    assert.deepEqual(raws[0], Uint8Array.from(await files.readBlock(0)));
    assert.deepEqual(raws[1], Uint8Array.from(await files.readBlock(110)));
    const info = await client.getBlockchainInfo();
    assert.equal(info.chain, 'regtest');
    assert.equal(info.blocks, FIRST_REVEALED);
    assert.equal(info.bestBlockHash, files.hashAt(FIRST_REVEALED));
    assert.equal(info.initialBlockDownload, false);
    const header = await client.getBlockHeader(files.hashAt(110));
    assert.equal(header.height, 110);
    assert.equal(header.nTx, files.txCount(110));
    assert.equal(header.previousBlockHash, files.hashAt(109));
    assert.equal(header.nextBlockHash, files.hashAt(111));
  });

  it('has an empty mempool, as the poll notifier and mempool sync read it', async () => {
    assert.deepEqual(await client.getRawMempool(), []);
    assert.equal((await client.getRawMempoolVerbose()).size, 0);
    const mempool = await client.getMempoolInfo();
    assert.equal(mempool.size, 0);
    assert.equal(mempool.minRelayTxFee, 1000n);
    const [best, info] = await rpc.batch<unknown>([{ method: 'getbestblockhash' }, { method: 'getmempoolinfo' }], { exactDecimals: true });
    assert.equal(best, files.hashAt(FIRST_REVEALED));
    assert.equal((info as { size: number }).size, 0);
  });

  it("answers Core's errors: unknown or unrevealed blocks -5, unknown methods -32601, bad credentials 401", async () => {
    await assert.rejects(client.getRawBlocks([files.hashAt(FIRST_REVEALED + 1)]), (err: unknown) => err instanceof RpcError && err.rpcCode === -5);
    await assert.rejects(client.getRawBlocks(['00'.repeat(32)]), (err: unknown) => err instanceof RpcError && err.rpcCode === -5);
    await assert.rejects(rpc.call('getwalletinfo'), (err: unknown) => err instanceof RpcError && err.rpcCode === -32601);
    const [ok, missing] = await rpc.batch([{ method: 'getblockcount' }, { method: 'getblockhash', params: [BLOCKS + 5] }]);
    assert.equal(ok, FIRST_REVEALED);
    assert.ok(missing instanceof RpcError && missing.rpcCode === -8);
    const wrong = new RpcClient({ url: url.replace('secret', 'wrong'), retries: 0 });
    await assert.rejects(wrong.call('getblockcount'), RpcUnavailableError);
    wrong.close();
  });

  it('finds a transaction by txid in a given block, as getrawtransaction with a block hash does', async () => {
    const block = (await new BlockFetcher(new RpcChainSource(client), params.features).fetch(110, 1)).blocks[0]!;
    const tx = block.txs[1]!;
    const raw = await rpc.call<string>('getrawtransaction', [tx.txid, false, files.hashAt(110)]);
    assert.equal(raw, Buffer.from(tx.raw).toString('hex'));
    await assert.rejects(rpc.call('getrawtransaction', [tx.txid, false]), (err: unknown) => err instanceof RpcError && err.rpcCode === -5);
  });

  it('serves the whole revealed chain through the indexer fetcher', async () => {
    const fetcher = new BlockFetcher(new RpcChainSource(client), params.features, { targetTxs: 2000 });
    let next = 0;
    while (next <= FIRST_REVEALED) {
      const batch = await fetcher.fetch(next, fetcher.nextCount(FIRST_REVEALED - next + 1));
      batch.blocks.forEach((block, i) => assert.equal(block.header.hash, files.hashAt(next + i)));
      next += batch.blocks.length;
    }
    assert.equal(next, FIRST_REVEALED + 1);
  });

  it('is indexed by the real NetworkIndexer, which follows it when more blocks are revealed', async () => {
    const store = new SqliteStore({ path: ':memory:' });
    await store.migrate();
    const network = store.network(params.id);
    const indexer = new NetworkIndexer({
      params, source: new RpcChainSource(client), store: network, bus: new MemoryEventBus(), logger: recordingLogger().logger,
    });
    try {
      await indexer.syncOnce();
      assert.deepEqual(await network.getTip(), { height: FIRST_REVEALED, hash: files.hashAt(FIRST_REVEALED) });
      assert.equal(await rpc.call('standin_reveal', [BLOCKS + 100]), BLOCKS - 1, 'reveal is clamped to the generated tip');
      await indexer.syncOnce();
      assert.deepEqual(await network.getTip(), { height: BLOCKS - 1, hash: files.hashAt(BLOCKS - 1) });
      for (const t of tracked) {
        const sink = new ByteSink(256);
        writeOutputScript(sink, t.id);
        const totals = await network.getAddressTotals(sink.buf.slice(1, sink.pos));
        const [, balance, received, txs] = t.history[t.history.length - 1]!;
        assert.equal(totals.confirmedBalance, BigInt(balance), `balance of tracked id ${t.id}`);
        assert.equal(totals.confirmedReceived, BigInt(received), `received by tracked id ${t.id}`);
        assert.equal(totals.txCount, txs, `txs of tracked id ${t.id}`);
      }
    } finally {
      node.reveal(FIRST_REVEALED);
      await store.close();
    }
  });
});
