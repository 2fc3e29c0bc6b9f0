/**
 * The node driver against Dogecoin Core 1.14 (the stand-in, test/helpers/dogecoin), on the builds before and
 * after 1.14.7: every call Outpoint makes succeeds, fields 1.14 lacks come back null (unknown) instead of
 * throwing or guessing, and the relay fee comes from getnetworkinfo where getmempoolinfo has none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { getNetworkParams } from '../chains/networks.js';
import { toHex } from '../chains/hash.js';
import { ConfigError, TxRejectedError } from '../core/domain/errors.js';
import { startDogecoinStandIn, type DogecoinStandIn } from '../../test/helpers/dogecoin/dogecoin-standin.js';
import { NotifierRecorder } from '../../test/helpers/notifier-recorder.js';
import { assertNodeServesNetwork } from './node-identity.js';
import { PollNotifier } from './notifiers/poll-notifier.js';
import { RpcBroadcaster } from './rpc-broadcaster.js';
import { RpcChainSource } from './rpc-chain-source.js';
import { RpcFeeSource } from './rpc-fee-source.js';
import { RpcMempoolSource } from './rpc-mempool-source.js';
import { zmqEndpointsFromNode } from './notifiers/zmq-notifier.js';

const REGTEST = getNetworkParams('DOGETEST', 'regtest');

for (const version of ['1.14.6', '1.14.9'] as const) {
  describe(`NodeClient against Dogecoin Core ${version}`, () => {
    let node: DogecoinStandIn;
    let parent: string;
    let child: string;

    before(async () => {
      node = await startDogecoinStandIn({ version, funded: true });
      parent = await node.send(node.wallet.newAddress(), '250');
      const tx = node.wallet.createTx({ inputs: [{ txid: parent, vout: 0 }], outputs: [{ address: node.wallet.newAddress(), value: 10_000_000_000n }] });
      child = await node.rpc.call<string>('sendrawtransaction', [toHex(tx.raw)]);
    });
    after(() => node?.stop());

    it('getblockchaininfo: initialblockdownload is unknown (null) when the build does not send it', async () => {
      const info = await node.node.getBlockchainInfo();
      assert.equal(info.chain, 'regtest');
      assert.equal(info.initialBlockDownload, version === '1.14.6' ? null : false);
    });

    it('getblockheader: no nTx in 1.14, so nTx is null', async () => {
      const header = await node.node.getBlockHeader(await node.node.getBestBlockHash());
      assert.equal(header.nTx, null);
      assert.equal(header.height, 61);
    });

    it('raw blocks (bool form, also batched) parse with the AuxPoW; txs by id, unknown ones as null', async () => {
      const source = new RpcChainSource(node.node);
      const hashes = await source.getBlockHashes(1, 3);
      const blocks = await source.getRawBlocks(hashes);
      assert.equal(toHex(blocks[2]!), await node.rpc.call<string>('getblock', [hashes[2], false]));
      assert.deepEqual((await source.getRawTransactions([parent, '00'.repeat(32)])).map((b) => b === null), [false, true]);
    });

    it('mempool entries: fees exact, no vsize/weight/wtxid/spentby/bip125 (null, not empty)', async () => {
      const entries = await node.node.getRawMempoolVerbose();
      const p = entries.get(parent)!;
      const c = entries.get(child)!;
      assert.ok(p.fee > 0n && c.fee > 0n);
      const raw = await node.rpc.call<Record<string, { size: number }>>('getrawmempool', [true]);
      assert.equal(p.vsize, raw[parent]!.size, 'vsize read from size');
      assert.deepEqual([p.wtxid, p.weight, p.spentBy, p.replaceable], [null, null, null, null]);
      assert.deepEqual(c.depends, [parent]);
      assert.equal(p.descendantFee, p.fee + c.fee, 'integer koinu sums');
      assert.equal(c.ancestorFee, p.fee + c.fee);
    });

    it('getmempoolinfo has no minrelaytxfee (null); the relay fee comes from getnetworkinfo', async () => {
      const info = await node.node.getMempoolInfo();
      assert.deepEqual([info.minRelayTxFee, info.loaded, info.totalFee, info.size], [null, null, null, 2]);
      const network = await node.node.getNetworkInfo();
      assert.deepEqual([network.relayFee, network.softDustLimit, network.hardDustLimit], [100_000n, 1_000_000n, 100_000n]);
      const { relayFee } = await node.node.getMempoolPolicy();
      assert.equal(relayFee, 100_000n);
      const snapshot = await new RpcMempoolSource(node.node).snapshot();
      assert.equal(snapshot.minFeeRate, 100, '0.001 DOGE/kB = 100 koinu per byte');
      assert.deepEqual(snapshot.entries.map((e) => e.txid).sort(), [parent, child].sort());
      assert.equal(snapshot.entries[0]!.weight, snapshot.entries[0]!.vsize * 4);
    });

    it('broadcast: accepted, resent (same txid), rejected for dust with the node reason, confirmed resend delivered', async () => {
      const broadcaster = new RpcBroadcaster(new Map([['DOGETEST', node.rpc]]));
      const tx = node.wallet.createTx({ outputs: [{ address: node.wallet.newAddress(), value: 123_000_000n }] });
      assert.equal(await broadcaster.broadcast('DOGETEST', toHex(tx.raw)), tx.txid);
      assert.equal(await broadcaster.broadcast('DOGETEST', toHex(tx.raw)), tx.txid, 'a mempool tx resent');
      const dust = node.wallet.createTx({ outputs: [{ address: node.wallet.newAddress(), value: 50_000n }] });
      await assert.rejects(broadcaster.broadcast('DOGETEST', toHex(dust.raw)), (err) => err instanceof TxRejectedError && err.reason === '64: dust');
      await node.mine(1);
      assert.equal(await broadcaster.broadcast('DOGETEST', toHex(tx.raw)), tx.txid, '-27 already in block chain: delivered');
    });

    it('PollNotifier signals tips and mempool changes on 1.14 replies (no total_fee in the fingerprint), and nothing while idle', async () => {
      const notifier = new PollNotifier(node.node, { pollMs: 50, fullMempoolEveryMs: 2_000 });
      const recorder = new NotifierRecorder(notifier);
      await notifier.start();
      try {
        const t0 = Date.now();
        await node.send(node.wallet.newAddress(), '1');
        assert.ok((await recorder.mempoolSignalled(t0, 2_000)) - t0 < 2_000);
        const t1 = Date.now();
        const [hash] = await node.mine(1);
        await recorder.tipReported(hash!, 2_000);
        const confirmed = await recorder.mempoolSignalled(t1, 2_000);
        // idle: one poll request every 50 ms, no txid list, no signal until fullMempoolEveryMs after the last one
        await delay(Math.max(0, confirmed + 100 - Date.now()));
        const before = { info: node.calls.get('getmempoolinfo') ?? 0, list: node.calls.get('getrawmempool') ?? 0, from: Date.now() };
        await delay(1_000);
        const polls = (node.calls.get('getmempoolinfo') ?? 0) - before.info;
        assert.ok(polls >= 8 && polls <= 21, `${polls} polls in 1 s`);
        assert.equal((node.calls.get('getrawmempool') ?? 0) - before.list, 0, 'the notifier never reads the txid list');
        assert.deepEqual(recorder.since(before.from), { tips: 0, mempool: 0 });
        const periodic = await recorder.mempoolSignalled(before.from, 3_000);
        assert.ok(periodic - confirmed >= 2_000, `the periodic signal ${periodic - confirmed} ms after the last`);
        assert.equal(recorder.errors.length, 0);
      } finally {
        await notifier.stop();
      }
    });

    it('estimatesmartfee with 0.14\'s signature (the target alone): -1 is no estimate; version and relay fee from getnetworkinfo', async () => {
      const fees = await new RpcFeeSource(node.node).estimates([1, 30, 1008]);
      assert.equal(fees.nodeVersion, version === '1.14.6' ? 1_140_600 : 1_140_900);
      assert.equal(fees.relayFeeRate, 100, '0.001 DOGE/kB = 100 koinu per vbyte');
      assert.deepEqual(fees.estimates.map((e) => [e.target, e.rate]), [[1, null], [30, null], [1008, null]]);
    });

    it('getzmqnotifications does not exist: the endpoints must come from the configuration (null)', async () => {
      assert.equal(await zmqEndpointsFromNode(node.node), null);
    });

    it('the node is refused when configured as another Dogecoin chain, accepted as its own', async () => {
      await assertNodeServesNetwork(node.node, REGTEST, 'the stand-in');
      await assert.rejects(assertNodeServesNetwork(node.node, getNetworkParams('DOGE'), 'http://127.0.0.1:1/'), (err) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /networks\.DOGE is configured as Dogecoin \(genesis 1a91e3da.*\), but the node at http:\/\/127\.0\.0\.1:1\/ serves Dogecoin Regtest \(genesis 3d2160a3.*, chain "regtest"\)/);
        assert.match(err.message, /Dogecoin Core node running Dogecoin \(no network flag\)/);
        return true;
      });
    });
  });
}

describe('Dogecoin Core 1.14 start-up: cookie, warm-up, testnet identity', () => {
  it('RpcClient with the cookie rides out -28 warm-up and a restart with a new cookie', async () => {
    const node = await startDogecoinStandIn({ warmupMs: 800, zmqTopics: [] }, { waitWarm: false });
    try {
      const client = node.client({ url: node.rpcUrl.replace(/\/\/[^@]*@/, '//'), cookieFile: node.cookieFile, retries: 6, backoffMs: 100 });
      assert.equal(await client.call('getblockcount'), 0);
      await node.halt();
      const restarted = node.resume({ waitWarm: false });
      const height = client.call('getblockcount');
      await restarted;
      assert.equal(await height, 0);
    } finally {
      await node.stop();
    }
  });

  it('a testnet node configured as main is refused; as DOGETEST test it is accepted', async () => {
    const node = await startDogecoinStandIn({ network: 'test', zmqTopics: [] });
    try {
      await assertNodeServesNetwork(node.node, getNetworkParams('DOGETEST', 'test'), 'x');
      await assert.rejects(assertNodeServesNetwork(node.node, getNetworkParams('DOGE'), 'x'), /serves Dogecoin Testnet \(genesis bb0a7826.*chain "test"\)/);
    } finally {
      await node.stop();
    }
  });
});
