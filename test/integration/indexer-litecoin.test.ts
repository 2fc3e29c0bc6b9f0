/**
 * The indexer against a real litecoind -regtest, on SQLite and PostgreSQL in lockstep: every
 * assertion compares the index with the node's own view (UTXO set, mempool, tip).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getNetworkParams } from '../../src/chains/networks.js';
import { MemoryEventBus, silentLogger } from '../../src/core/index.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { addressToScript } from '../../src/chains/addressing.js';
import { conflictingSpend } from '../helpers/conflicting-spend.js';
import { useIndexedRegtest, type IndexedEngine } from '../helpers/indexer-harness.js';
import { startLitecoind, type AddressType, type RegtestNode } from '../helpers/regtest-node.js';

const params = getNetworkParams('LTCTEST', 'regtest');
let node: RegtestNode;
let indexed: IndexedEngine[];

async function nodeTxStatus(txid: string): Promise<'confirmed' | 'mempool' | 'orphaned'> {
  if ((await node.rpc.call<string[]>('getrawmempool')).includes(txid)) return 'mempool';
  try {
    const tx = await node.rpc.call<{ confirmations?: number }>('getrawtransaction', [txid, true]);
    return (tx.confirmations ?? 0) > 0 ? 'confirmed' : 'orphaned';
  } catch {
    return 'orphaned';
  }
}

const env = useIndexedRegtest(params, () => startLitecoind({ funded: true }), (started) => {
  node = started.node;
  indexed = started.indexed;
});

const checkAll = (label: string): Promise<void> => env().check(label);

describe('litecoind regtest indexing', () => {
  it('initial sync reaches the node tip with the coinbase outputs indexed', async () => {
    const miner = await node.newAddress('bech32');
    await node.mine(5, miner);
    env().watched.push(miner);
    await checkAll('initial sync');
    for (const e of indexed) {
      const totals = await e.store.getAddressTotals(addressToScript(params, miner));
      assert.equal(totals.receivedTxCount, 5, 'five coinbase payouts');
      const block = await e.store.getBlockByHeight(1);
      assert.equal(block?.hash, await node.rpc.call<string>('getblockhash', [1]));
      assert.equal(block?.isOrphan, false);
    }
  });

  it('sends to every address type appear in the mempool, then confirm', async () => {
    const types: AddressType[] = ['legacy', 'p2sh-segwit', 'bech32'];
    const targets: string[] = [];
    for (const type of types) targets.push(await node.newAddress(type));
    env().watched.push(...targets);
    const txids: string[] = [];
    for (const [i, address] of targets.entries()) txids.push(await node.send(address, `1.2345678${i}`));
    txids.push(await node.send(targets[0]!, '0.5'));
    await checkAll('after sends');
    for (const e of indexed) {
      const totals = await e.store.getAddressTotals(addressToScript(params, targets[0]!));
      assert.equal(totals.unconfirmedReceived, 123_456_780n + 50_000_000n, `${e.test.engine}: unconfirmed received`);
      assert.equal(totals.unconfirmedTxCount, 2);
      const tx = await e.store.getTransaction(txids[0]!);
      assert.equal(tx?.status, 'mempool');
      assert.ok(tx.fee !== null && tx.fee > 0n, 'fee computed from prevouts');
    }
    await node.mine(1);
    await checkAll('after confirmation');
    for (const e of indexed) {
      const tx = await e.store.getTransaction(txids[0]!);
      assert.equal(tx?.status, 'confirmed');
      const totals = await e.store.getAddressTotals(addressToScript(params, targets[0]!));
      assert.equal(totals.confirmedReceived, 173_456_780n);
      assert.equal(totals.unconfirmedReceived, 0n);
      assert.ok(e.events.some((ev) => ev.kind === 'tx_removed' && ev.txid === txids[0] && ev.reason === 'confirmed'));
    }
  });

  it('a payment with many inputs and change spends from every watched address', async () => {
    const sink = await node.newAddress('bech32');
    env().watched.push(sink);
    // Spend everything the wallet has in small outputs: many inputs, a change output.
    const outputs: Record<string, string> = {};
    for (let i = 0; i < 12; i++) outputs[await node.newAddress(i % 2 ? 'legacy' : 'bech32')] = '0.01';
    await node.wallet.call('sendmany', ['', outputs]);
    await node.mine(1);
    const balance = await node.wallet.call<number>('getbalance');
    await node.wallet.call('sendtoaddress', [sink, String(Math.floor(balance * 0.9 * 1e8) / 1e8)]);
    await checkAll('many inputs (mempool)');
    await node.mine(1);
    await checkAll('many inputs (confirmed)');
  });

  it('a mempool tx double-spent by a conflicting tx in a block is flagged and leaves the mempool', async () => {
    // Litecoin Core has no replace-by-fee: the conflict arrives in a block (as from another miner).
    const target = await node.newAddress('bech32');
    env().watched.push(target);
    const original = await node.send(target, '0.3');
    await checkAll('before the conflicting block');
    const conflicting = await conflictingSpend(node, original);
    await node.rpc.call('generateblock', [await node.newAddress('bech32'), [conflicting.hex]]);
    await checkAll('after the conflicting block');
    for (const e of indexed) {
      const old = await e.store.getTransaction(original);
      assert.equal(old?.doubleSpent, true, `${e.test.engine}: original flagged`);
      assert.equal(old?.status, 'removed');
      assert.equal((await e.store.getTransaction(conflicting.txid))?.status, 'confirmed');
      assert.ok(e.events.some((ev) => ev.kind === 'tx_removed' && ev.txid === original && ev.reason === 'conflicted'));
    }
    // Queryable as removed for the retention (mempool_removed_keep_hours), then forgotten by the indexer's own pass.
    // The removal time is in whole seconds: after 2.1 s it is more than 1 s old.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    for (const e of indexed) {
      const pruning = new NetworkIndexer({
        params, source: new RpcChainSource(node.node), store: e.store, bus: new MemoryEventBus(), logger: silentLogger, removedMempoolKeepSeconds: 1,
      });
      await pruning.syncOnce();
      assert.equal(await e.store.getTransaction(original), null, `${e.test.engine}: removed original pruned`);
      assert.equal((await e.store.getTransaction(conflicting.txid))?.status, 'confirmed');
    }
    await checkAll('after pruning');
  });

  for (const depth of [1, 10]) {
    it(`a ${depth}-block reorg rolls back, orphans the stale blocks and returns their txs to the mempool`, async () => {
      const target = await node.newAddress('p2sh-segwit');
      env().watched.push(target);
      const stale: string[] = [];
      const txids: string[] = [];
      for (let i = 0; i < depth; i++) {
        txids.push(await node.send(target, '0.01'));
        stale.push(...(await node.mine(1)));
      }
      await checkAll(`before ${depth}-block reorg`);
      await node.rpc.call('invalidateblock', [stale[0]]);
      const fresh = await node.mine(depth + 1, await node.newAddress('legacy'));
      await checkAll(`after ${depth}-block reorg`);
      for (const e of indexed) {
        for (const hash of stale) {
          const block = await e.store.getBlockByHash(hash);
          assert.equal(block?.isOrphan, true, `${e.test.engine}: ${hash} orphaned`);
          assert.equal(block?.nextHash, null);
        }
        const tip = await e.store.getBlockByHash(fresh[fresh.length - 1]!);
        assert.equal(tip?.isOrphan, false);
        assert.ok(e.events.some((ev) => ev.kind === 'block_disconnected' && ev.hash === stale[0]));
      }
      // The node put the stale blocks' txs back in its mempool and mined them again, or dropped them (a spend of
      // a coinbase that is immature on the shorter chain): the index agrees with the node in each case.
      for (const txid of txids) {
        const status = await nodeTxStatus(txid);
        for (const e of indexed) {
          const tx = await e.store.getTransaction(txid);
          assert.equal(tx?.status, status, `${e.test.engine}: ${txid}`);
        }
      }
      await node.rpc.call('reconsiderblock', [stale[0]]);
      await node.mine(1);
      await checkAll(`after ${depth}-block reorg settled`);
    });
  }

  it('both engines hold identical data', async () => {
    const [a, b] = indexed;
    for (const kind of ['confirmedBalance', 'unconfirmedBalance', 'txCount'] as const) {
      for (const address of env().watched) {
        const script = addressToScript(params, address);
        const [ta, tb] = await Promise.all([a!.store.getAddressTotals(script), b!.store.getAddressTotals(script)]);
        assert.equal(ta[kind], tb[kind], `${kind} of ${address}`);
      }
    }
  });
});
