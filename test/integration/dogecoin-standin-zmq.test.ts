/**
 * The Dogecoin Core 1.14 stand-in against docs/dogecoin-1.14.md, the ZMQ and "Regtest and policy"
 * rows (the call rows: dogecoin-standin.test.ts).
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Subscriber } from 'zeromq';
import { parseBlock } from '../../src/chains/parsing.js';
import { toHex } from '../../src/chains/hash.js';
import { startDogecoinStandIn, type DogecoinStandIn } from '../helpers/dogecoin/dogecoin-standin.js';
import { rpcError } from '../helpers/dogecoin/raw-rpc.js';
import { DOGE_FEATURES } from '../helpers/dogecoin/regtest-rules.js';
import { waitFor } from '../helpers/regtest-node.js';

let modern: DogecoinStandIn;

before(async () => {
  modern = await startDogecoinStandIn({ funded: true });
});
after(async () => {
  await modern?.stop();
});

describe('ZMQ', () => {
  interface Frame {
    topic: string;
    body: Buffer;
    seq: number;
  }

  async function subscribe(standin: DogecoinStandIn): Promise<{ frames: Frame[]; close(): void }> {
    const socket = new Subscriber();
    const handshake = new Promise<void>((resolve) => socket.events.on('handshake', () => resolve()));
    socket.connect(standin.zmqUrl!);
    socket.subscribe();
    const frames: Frame[] = [];
    void (async () => {
      try {
        for await (const [topic, body, seq] of socket) frames.push({ topic: topic!.toString(), body: body!, seq: seq!.readUInt32LE(0) });
      } catch {
        // closed
      }
    })();
    // The slow joiner: messages published before the subscription reached the publisher are lost.
    await handshake;
    await delay(200);
    return { frames, close: () => socket.close() };
  }

  it('only hashblock/hashtx/rawblock/rawtx, three frames, a counter per topic, hashes in display order; nothing when a tx leaves', async () => {
    const sub = await subscribe(modern);
    try {
      const w = modern.wallet;
      const txid = await modern.send(w.newAddress(), '3');
      await waitFor(() => sub.frames.some((f) => f.topic === 'hashtx' && f.body.toString('hex') === txid), 5000, 'hashtx');
      const rawtx = sub.frames.find((f) => f.topic === 'rawtx')!;
      assert.equal(rawtx.body.toString('hex'), await modern.rpc.call('getrawtransaction', [txid]));
      // A replaceable payment and its replacement: the replaced tx leaves silently.
      const coin = w.unspent().find((c) => c.confirmed)!;
      const first = w.createTx({ inputs: [coin], outputs: [{ address: w.newAddress(), value: 100_000_000n }], sequence: 0xfffffffd, fee: 1_000_000n });
      await modern.rpc.call('sendrawtransaction', [toHex(first.raw)]);
      const second = w.createTx({ inputs: [coin], outputs: [{ address: w.newAddress(), value: 100_000_000n }], sequence: 0xfffffffd, fee: 3_000_000n });
      await modern.rpc.call('sendrawtransaction', [toHex(second.raw)]);
      assert.ok(!(await modern.rpc.call<string[]>('getrawmempool')).includes(first.txid), 'replaced');
      const evicted = await modern.send(w.newAddress(), '2');
      await waitFor(() => sub.frames.some((f) => f.body.toString('hex') === evicted), 5000, 'hashtx of the evicted tx');
      modern.core.evict(evicted);
      const before = sub.frames.length;
      const [hash] = await modern.mine(1);
      await waitFor(() => sub.frames.some((f) => f.topic === 'rawblock'), 5000, 'rawblock');
      const block = sub.frames.slice(before);
      const blockTxids = (await modern.rpc.call<{ tx: string[] }>('getblock', [hash])).tx;
      assert.deepEqual(block.filter((f) => f.topic === 'hashtx').map((f) => f.body.toString('hex')), blockTxids, 'hashtx for every tx of the block');
      assert.equal(block.find((f) => f.topic === 'hashblock')?.body.toString('hex'), hash);
      assert.equal(block.find((f) => f.topic === 'rawblock')?.body.toString('hex'), await modern.rpc.call('getblock', [hash, false]));
      assert.deepEqual([...new Set(sub.frames.map((f) => f.topic))].sort(), ['hashblock', 'hashtx', 'rawblock', 'rawtx']);
      for (const topic of ['hashtx', 'rawtx', 'hashblock']) {
        const seqs = sub.frames.filter((f) => f.topic === topic).map((f) => f.seq);
        assert.deepEqual(seqs, seqs.map((_s, i) => seqs[0]! + i), `${topic} counts up by one`);
      }
      const silent = [first.txid, evicted];
      const txMessages = sub.frames.filter((f) => f.topic === 'hashtx').map((f) => f.body.toString('hex'));
      for (const t of silent) assert.equal(txMessages.filter((x) => x === t).length, 1, `${t}: only its acceptance was published`);
      // A disconnect-only tip change publishes no hashblock.
      const count = sub.frames.length;
      await modern.rpc.call('invalidateblock', [hash]);
      await delay(200);
      assert.equal(sub.frames.slice(count).filter((f) => f.topic === 'hashblock').length, 0);
      await modern.rpc.call('reconsiderblock', [hash]);
    } finally {
      sub.close();
    }
  });

  it('with the 0.14 SyncTransaction reading, hashtx also goes out for the txs of a disconnected block', async () => {
    const standin = await startDogecoinStandIn({ funded: true, syncOnRemoval: true });
    const sub = await subscribe(standin);
    try {
      const txid = await standin.send(standin.wallet.newAddress(), '1');
      const [hash] = await standin.mine(1);
      await waitFor(() => sub.frames.some((f) => f.topic === 'hashblock'), 5000, 'hashblock');
      const count = sub.frames.filter((f) => f.topic === 'hashtx' && f.body.toString('hex') === txid).length;
      await standin.rpc.call('invalidateblock', [hash]);
      // back in the mempool (an accept) and the disconnection itself
      await waitFor(() => sub.frames.filter((f) => f.topic === 'hashtx' && f.body.toString('hex') === txid).length === count + 2, 5000, 'two more hashtx');
    } finally {
      sub.close();
      await standin.stop();
    }
  });
});

describe('regtest rules', () => {
  it('coinbase maturity 60: a coinbase 59 blocks deep is refused, 60 deep accepted', async () => {
    const standin = await startDogecoinStandIn({ zmqTopics: [] });
    try {
      const w = standin.wallet;
      const [matureAt] = await standin.mine(1, w.newAddress());
      const [youngAt] = await standin.mine(1, w.newAddress());
      await standin.mine(58);
      const coinbaseOf = async (hash: string) => (await standin.rpc.call<{ tx: string[] }>('getblock', [hash])).tx[0]!;
      const spend = async (hash: string) => toHex(w.sign([{ txid: await coinbaseOf(hash), vout: 0 }], [{ value: 100_000_000n, script: Buffer.from('76a914' + '11'.repeat(20) + '88ac', 'hex') }]).raw);
      // allowhighfees: the rest of the 500,000 DOGE coinbase is the fee here
      assert.equal((await rpcError(standin.rpc.call('sendrawtransaction', [await spend(youngAt!), true]))).message, '16: bad-txns-premature-spend-of-coinbase');
      assert.match(await standin.rpc.call<string>('sendrawtransaction', [await spend(matureAt!), true]), /^[0-9a-f]{64}$/);
    } finally {
      await standin.stop();
    }
  });

  it('legacy (non-AuxPoW) blocks only below height 20; generatetoaddress always merge-mines', async () => {
    const standin = await startDogecoinStandIn({ zmqTopics: [] });
    try {
      const hash = standin.mineWith([], undefined, { auxpow: false });
      const legacyBlock = parseBlock(Buffer.from(await standin.rpc.call<string>('getblock', [hash, false]), 'hex'), DOGE_FEATURES);
      assert.equal(legacyBlock.auxpow, null);
      await standin.mine(18);
      assert.throws(() => standin.mineWith([], undefined, { auxpow: false }), /only valid below height 20/);
    } finally {
      await standin.stop();
    }
  });
});
