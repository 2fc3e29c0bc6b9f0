/**
 * The stand-in node's mempool (bench/scale/stand-in-mempool.ts, for bench/mempool-rate.bench.ts): Outpoint's node
 * client reads it in bitcoind's reply shapes (getrawmempool both forms, getmempoolinfo, getmempoolentry, batched
 * getrawtransaction), our parser reads every tx back with the txid the node names, each input spends an output of
 * the chain or of an earlier mempool tx that nothing else spends, and the real NetworkIndexer stores them all.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MemoryEventBus, RpcError, type DomainEvent, type Transaction } from '../../src/core/index.js';
import { addressToScript } from '../../src/chains/addressing.js';
import { parseBlock, parseTransaction } from '../../src/chains/parsing.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { RpcMempoolPackageSource } from '../../src/node/rpc-mempool-package-source.js';
import type { NodeClient } from '../../src/node/rpc/node-client.js';
import type { RpcClient } from '../../src/node/rpc/rpc-client.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { ChainFiles } from '../../bench/scale/block-files.js';
import { params } from '../../bench/scale/chain-params.js';
import { recordingLogger } from '../helpers/recording-logger.js';
import { standInChain, type StandInChain } from '../helpers/stand-in-chain.js';

const BLOCKS = 140;
const TXS = 400;
let chain: StandInChain;
let files: ChainFiles;
let rpc: RpcClient;
let client: NodeClient;
let txids: string[];
let txs: Transaction[];
let watched: string[];

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

before(async () => {
  chain = await standInChain({ seed: 5, blocks: BLOCKS, blockTxs: 200, node: { mempoolSeed: 9 } });
  ({ files, rpc, client } = chain);
});

after(async () => {
  await chain?.close();
});

describe('stand-in mempool', () => {
  it('is empty until txs are added, then lists them in arrival order', async () => {
    assert.deepEqual(await client.getRawMempool(), []);
    watched = await rpc.call<string[]>('standin_mempool_watched');
    assert.equal(watched.length, 64);
    for (const address of watched) assert.ok(addressToScript(params, address).length > 0, `${address} is a regtest address`);
    const first = await rpc.call<{ at: number; txids: string[] }>('standin_mempool_add', [150]);
    const second = await rpc.call<{ at: number; txids: string[] }>('standin_mempool_add', [TXS - 150]);
    assert.ok(Math.abs(first.at - Date.now()) < 5_000, 'added at, in ms since the epoch');
    assert.ok(second.at >= first.at);
    txids = [...first.txids, ...second.txids];
    assert.equal(new Set(txids).size, TXS);
    assert.deepEqual(await client.getRawMempool(), txids);
    await assert.rejects(rpc.call('standin_mempool_add', [-1]), (err: unknown) => err instanceof RpcError && err.rpcCode === -8);
  });

  it('serves each tx by txid (batched, as the mempool sync asks) and the parser reads the same txid back', async () => {
    const raws = await client.getRawTransactions(txids);
    txs = raws.map((raw, i) => {
      assert.ok(raw, `tx ${i} served`);
      const tx = parseTransaction(raw, { mweb: false });
      assert.equal(tx.txid, txids[i]);
      return tx;
    });
    assert.ok(txs.some((tx) => tx.hasWitness) && txs.some((tx) => !tx.hasWitness), 'segwit and legacy serializations');
    const [missing] = await client.getRawTransactions(['ab'.repeat(32)]);
    assert.equal(missing, null, 'a txid in neither the mempool nor a given block is -5');
  });

  it('spends only outputs of the chain or of earlier mempool txs, each once, and pays a watched address', async () => {
    const outputs = new Map<string, bigint>();
    const spent = new Set<string>();
    for (let h = 0; h < BLOCKS; h++) {
      for (const tx of parseBlock(await files.readBlock(h), params.features).txs) {
        for (const input of tx.inputs) if (!tx.isCoinbase) spent.add(`${input.prevTxid}:${input.prevVout}`);
        tx.outputs.forEach((o, vout) => outputs.set(`${tx.txid}:${vout}`, o.value));
      }
    }
    const watchedScripts = new Set(watched.map((a) => hex(addressToScript(params, a))));
    const entries = await client.getRawMempoolVerbose();
    let chained = 0;
    for (const tx of txs) {
      let inputs = 0n;
      for (const input of tx.inputs) {
        const key = `${input.prevTxid}:${input.prevVout}`;
        const value = outputs.get(key);
        assert.ok(value !== undefined, `${key} exists before ${tx.txid}`);
        assert.ok(!spent.has(key), `${key} is spent once`);
        spent.add(key);
        inputs += value;
        if (txids.includes(input.prevTxid)) chained++;
      }
      const paid = tx.outputs.reduce((sum, o) => sum + o.value, 0n);
      assert.ok(inputs > paid, 'inputs pay the outputs and a fee');
      assert.equal(entries.get(tx.txid)!.fee, inputs - paid, 'the entry fee is inputs minus outputs');
      assert.ok(tx.outputs.some((o) => watchedScripts.has(hex(o.script))), 'one output pays a watched address');
      tx.outputs.forEach((o, vout) => outputs.set(`${tx.txid}:${vout}`, o.value));
    }
    assert.ok(chained > 0, 'some txs spend change of earlier mempool txs');
  });

  it("answers getrawmempool true, getmempoolinfo and getmempoolentry with Core's fields", async () => {
    const entries = await client.getRawMempoolVerbose();
    assert.deepEqual([...entries.keys()], txids);
    const byTxid = new Map(txs.map((tx) => [tx.txid, tx]));
    let bytes = 0;
    let fees = 0n;
    for (const [txid, e] of entries) {
      const tx = byTxid.get(txid)!;
      assert.equal(e.vsize, tx.vsize);
      assert.equal(e.weight, tx.weight);
      assert.equal(e.wtxid, tx.wtxid);
      const parents = [...new Set(tx.inputs.map((i) => i.prevTxid).filter((p) => byTxid.has(p)))];
      assert.deepEqual(e.depends, parents);
      for (const parent of parents) assert.ok(entries.get(parent)!.spentBy!.includes(txid));
      assert.ok(e.ancestorCount >= parents.length + 1);
      assert.ok(e.ancestorFee >= e.fee && e.descendantFee >= e.fee);
      bytes += tx.vsize;
      fees += e.fee;
    }
    const info = await client.getMempoolInfo();
    assert.deepEqual([info.size, info.bytes, info.totalFee], [TXS, bytes, fees]);
    const packages = new RpcMempoolPackageSource(client);
    assert.equal((await packages.packageOf(txids[7]!))?.vsize, byTxid.get(txids[7]!)!.vsize);
    assert.equal(await packages.packageOf('cd'.repeat(32)), null, 'getmempoolentry of an unknown tx is -5');
  });

  it('is stored whole by the real NetworkIndexer, one tx_accepted event each', async () => {
    const store = new SqliteStore({ path: ':memory:' });
    await store.migrate();
    const network = store.network(params.id);
    const bus = new MemoryEventBus();
    const accepted: string[] = [];
    bus.subscribe((event: DomainEvent) => {
      if (event.kind === 'tx_accepted') accepted.push(event.tx.txid);
    });
    const indexer = new NetworkIndexer({ params, source: new RpcChainSource(client), store: network, bus, logger: recordingLogger().logger });
    try {
      let result = await indexer.syncOnce();
      for (let i = 0; result.incomplete && i < 5; i++) result = await indexer.syncOnce();
      assert.deepEqual((await network.getMempoolTxids()).sort(), [...txids].sort());
      assert.deepEqual(accepted.sort(), [...txids].sort());
    } finally {
      await store.close();
    }
  });
});
