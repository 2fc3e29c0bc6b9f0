/**
 * The indexer following Dogecoin Core 1.14 (the stand-in) on SQLite and PostgreSQL in lockstep: legacy and
 * merge-mined regtest blocks, payments, a replacement, an eviction, a double spend confirmed by a block and
 * reorgs. Every check compares the index with the node's own view (UTXO set, main chain, mempool).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getNetworkParams } from '../../src/chains/networks.js';
import { addressToScript } from '../../src/chains/addressing.js';
import { toHex } from '../../src/chains/hash.js';
import { RpcError } from '../../src/core/domain/errors.js';
import { startDogecoinStandIn, type DogecoinStandIn } from '../helpers/dogecoin/dogecoin-standin.js';
import { IndexedRegtest, syncAll, useIndexedRegtest, type IndexedEngine } from '../helpers/indexer-harness.js';
import { assertTipAndMempoolMatchNode } from '../helpers/node-oracle.js';

const params = getNetworkParams('DOGETEST', 'regtest');
let node: DogecoinStandIn;
let indexed: IndexedEngine[];

const env = useIndexedRegtest(
  params,
  async () => {
    const standin = await startDogecoinStandIn({ zmqTopics: [] });
    // Regtest accepts legacy (non-AuxPoW) blocks below height 20: the chain starts with a few, then merge-mines.
    for (let i = 0; i < 3; i++) standin.mineWith([], undefined, { auxpow: false });
    return standin;
  },
  (started) => {
    node = started.node;
    indexed = started.indexed;
  },
);
const checkAll = (label: string): Promise<void> => env().check(label);

async function nodeTxStatus(txid: string): Promise<'confirmed' | 'mempool' | 'orphaned'> {
  if ((await node.rpc.call<string[]>('getrawmempool')).includes(txid)) return 'mempool';
  try {
    return ((await node.rpc.call<{ confirmations?: number }>('getrawtransaction', [txid, true])).confirmations ?? 0) > 0 ? 'confirmed' : 'orphaned';
  } catch (err) {
    if (err instanceof RpcError && err.rpcCode === -5) return 'orphaned';
    throw err;
  }
}

async function storedStatus(txid: string): Promise<Array<string | undefined>> {
  return Promise.all(indexed.map(async (e) => (await e.store.getTransaction(txid))?.status));
}

describe('Dogecoin Core 1.14 regtest indexing', () => {
  it('initial sync through legacy and merge-mined blocks reaches the node tip', async () => {
    const miner = node.wallet.newAddress();
    await node.mine(62, miner);
    env().watched.push(miner);
    await checkAll('initial sync');
    for (const e of indexed) {
      assert.equal((await e.store.getBlockByHeight(1))?.hash, await node.rpc.call<string>('getblockhash', [1]));
      assert.equal((await e.store.getAddressTotals(addressToScript(params, miner))).receivedTxCount, 62);
    }
  });

  it('payments appear in the mempool (parent and child), then confirm', async () => {
    const a = node.wallet.newAddress();
    const b = node.wallet.newAddress();
    env().watched.push(a, b);
    const parent = await node.send(a, '1000');
    const child = node.wallet.createTx({ inputs: [{ txid: parent, vout: 0 }], outputs: [{ address: b, value: 40_000_000_000n }] });
    await node.rpc.call('sendrawtransaction', [toHex(child.raw)]);
    await checkAll('mempool');
    assert.deepEqual(await storedStatus(child.txid), ['mempool', 'mempool']);
    await node.mine(1);
    await checkAll('confirmed');
    for (const e of indexed) {
      assert.equal((await e.store.getTransaction(child.txid))?.status, 'confirmed');
      assert.ok(e.events.some((ev) => ev.kind === 'tx_removed' && ev.txid === parent && ev.reason === 'confirmed'));
    }
  });

  it('a BIP125 replacement and an eviction (both silent on 1.14 ZMQ) leave the index', async () => {
    const w = node.wallet;
    const target = w.newAddress();
    env().watched.push(target);
    const coin = w.unspent().find((c) => c.confirmed)!;
    const first = w.createTx({ inputs: [coin], outputs: [{ address: target, value: 500_000_000n }], sequence: 0, fee: 1_000_000n });
    await node.rpc.call('sendrawtransaction', [toHex(first.raw)]);
    await checkAll('before the replacement');
    const second = w.createTx({ inputs: [coin], outputs: [{ address: target, value: 400_000_000n }], sequence: 0, fee: 5_000_000n });
    await node.rpc.call('sendrawtransaction', [toHex(second.raw)]);
    const evicted = await node.send(target, '3');
    await checkAll('replacement');
    node.core.evict(evicted);
    await checkAll('eviction');
    assert.deepEqual(await storedStatus(first.txid), ['removed', 'removed']);
    for (const e of indexed) assert.ok(e.events.some((ev) => ev.kind === 'tx_removed' && ev.txid === first.txid && ev.reason === 'replaced'));
    // An evicted tx is forgotten at once (only replaced and double-spent ones stay queryable as removed).
    assert.deepEqual(await storedStatus(evicted), [undefined, undefined]);
    for (const e of indexed) assert.ok(e.events.some((ev) => ev.kind === 'tx_removed' && ev.txid === evicted && ev.reason === 'evicted'));
    await node.mine(1);
    await checkAll('replacement confirmed');
  });

  it('a mempool tx double-spent by a conflicting tx in a block is flagged and leaves the mempool', async () => {
    const w = node.wallet;
    const target = w.newAddress();
    env().watched.push(target);
    const coin = w.unspent().find((c) => c.confirmed)!;
    // Not replaceable: the conflict can only arrive in a block (as from another miner).
    const original = w.createTx({ inputs: [coin], outputs: [{ address: target, value: 700_000_000n }] });
    await node.rpc.call('sendrawtransaction', [toHex(original.raw)]);
    await checkAll('before the conflicting block');
    const conflict = w.createTx({ inputs: [coin], outputs: [{ address: w.newAddress(), value: 600_000_000n }] });
    node.mineWith([conflict]);
    await checkAll('after the conflicting block');
    for (const e of indexed) {
      const old = await e.store.getTransaction(original.txid);
      assert.deepEqual([old?.doubleSpent, old?.status], [true, 'removed'], e.test.engine);
      assert.equal((await e.store.getTransaction(conflict.txid))?.status, 'confirmed');
      assert.ok(e.events.some((ev) => ev.kind === 'tx_removed' && ev.txid === original.txid && ev.reason === 'conflicted'));
    }
  });

  for (const depth of [1, 3]) {
    it(`a ${depth}-block reorg orphans the stale blocks and returns their txs to the mempool`, async () => {
      const target = node.wallet.newAddress();
      env().watched.push(target);
      const stale: string[] = [];
      const txids: string[] = [];
      for (let i = 0; i < depth; i++) {
        txids.push(await node.send(target, '7'));
        stale.push(...(await node.mine(1)));
      }
      await checkAll(`before the ${depth}-block reorg`);
      await node.rpc.call('invalidateblock', [stale[0]]);
      const fresh = await node.mine(depth + 1);
      await checkAll(`after the ${depth}-block reorg`);
      for (const e of indexed) {
        for (const hash of stale) assert.equal((await e.store.getBlockByHash(hash))?.isOrphan, true, `${e.test.engine}: ${hash} orphaned`);
        assert.equal((await e.store.getBlockByHash(fresh[fresh.length - 1]!))?.isOrphan, false);
        assert.ok(e.events.some((ev) => ev.kind === 'block_disconnected' && ev.hash === stale[0]));
      }
      for (const txid of txids) {
        const status = await nodeTxStatus(txid);
        assert.deepEqual(await storedStatus(txid), [status, status], txid);
      }
      await node.rpc.call('reconsiderblock', [stale[0]]);
      await node.mine(1);
      await checkAll(`after the ${depth}-block reorg settled`);
    });
  }
});

describe('Dogecoin Core 1.14.6 (bool-only getblock, no initialblockdownload)', () => {
  it('syncs and follows the mempool just the same', async () => {
    const env146 = await IndexedRegtest.start(params, () => startDogecoinStandIn({ version: '1.14.6', funded: true, zmqTopics: [] }));
    try {
      const standin = env146.node;
      const address = standin.wallet.newAddress();
      await standin.send(address, '42');
      await syncAll(env146.indexed);
      for (const e of env146.indexed) {
        await assertTipAndMempoolMatchNode(standin, e.store, `1.14.6 [${e.test.engine}]`);
        assert.equal((await e.store.getAddressTotals(addressToScript(params, address))).unconfirmedReceived, 4_200_000_000n);
      }
      await standin.mine(1);
      await syncAll(env146.indexed);
      for (const e of env146.indexed) {
        await assertTipAndMempoolMatchNode(standin, e.store, `1.14.6 confirmed [${e.test.engine}]`);
        assert.equal((await e.store.getAddressTotals(addressToScript(params, address))).confirmedBalance, (await standin.confirmedUtxos(address)).total);
      }
    } finally {
      await env146.close();
    }
  });
});
