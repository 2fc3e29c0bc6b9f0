/**
 * The realtime server as users meet it: the official pusher-js client, unchanged, against a
 * litecoind regtest node and the indexer (SQLite). Payloads are compared field by field with the
 * node's own view of the same blocks and transactions. The protocol's rules and limits: realtime-protocol.test.ts.
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { MemoryEventBus, noPrices, silentLogger } from '../../src/core/index.js';
import { buildHttpApp } from '../../src/main/wiring/http-wiring.js';
import { addressToScript } from '../../src/chains/addressing.js';
import { encodeBase58Address } from '../../src/chains/address/base58-address.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { Recorder, subscribed, type Pusher } from '../helpers/pusher-clients.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines } from '../helpers/store-engines.js';
import { params, RealtimeServers, type RealtimeServer } from './realtime-servers.js';


interface BlockUpdate {
  type: string;
  value: Record<string, unknown> & { blockhash: string; mining_difficulty: string; time: number };
}
interface TxUpdate {
  type: string;
  value: { txid: string; tx_hex: string; total_inputs: string; total_outputs: string; sent_value: number; txpm: number; unconfirmed_txs: number; time: number };
}
interface BalanceUpdate {
  type: string;
  value: {
    address: string;
    value_sent: string;
    value_received: string;
    balance_change: string;
    tx: {
      txid: string;
      inputs: { input_no: number; from_output: { txid: string; output_no: number }; address: string; value: string }[];
      outputs: { output_no: number; value: string; address: string }[];
    };
  };
}

let node: RegtestNode;
let engines: StoreEngines;
let indexer: NetworkIndexer;
/** The v2 REST API over the same index: realtime payloads must spell things as it does. */
let rest: FastifyInstance;
const bus = new MemoryEventBus();
const servers = new RealtimeServers(bus);

async function sync(): Promise<void> {
  for (let i = 0; i < 5; i++) if (!(await indexer.syncOnce()).incomplete) return;
}

const client = (port: number, key?: string): Promise<Pusher> => servers.client(port, key);

interface NodeTx {
  hex: string;
  vin: { txid?: string; vout?: number }[];
  vout: { value: number; n: number }[];
}

const nodeTx = (txid: string): Promise<NodeTx> => node.rpc.call<NodeTx>('getrawtransaction', [txid, true]);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- REST bodies are compared field by field
const restData = async (path: string): Promise<any> => (JSON.parse((await rest.inject(`/api/v2${path}`)).body) as { data: unknown }).data;

/** The deprecated `3…` spelling of a Litecoin P2SH address (same script as its `M…`/`Q…` form). */
function legacyP2sh(address: string): string {
  return encodeBase58Address(params.scriptHashVersions[1]!, addressToScript(params, address).subarray(2, 22));
}

let main: RealtimeServer;

before(async () => {
  node = await startLitecoind({ funded: true });
  engines = new StoreEngines();
  const test = await engines.create('sqlite');
  indexer = new NetworkIndexer({ params, source: new RpcChainSource(node.node), store: test.store.network('LTCTEST'), bus, logger: silentLogger });
  rest = await buildHttpApp({
    networks: new Map([['LTCTEST', { params, reader: test.store.network('LTCTEST') }]]), prices: noPrices,
    broadcaster: { broadcast: () => Promise.reject(new Error('unused')) }, publicUrl: 'https://outpoint.test', rateLimitPerSecond: 0,
    redisUrl: null, logger: silentLogger, shortLinks: test.store.shortAddresses(),
  });
  await sync();
  assert.ok(indexer.isCaughtUp);
  main = await servers.serve();
});

after(async () => {
  await rest?.close();
  await servers.close();
  await node?.stop();
  await engines?.close();
});

describe('pusher-js against the realtime server', () => {
  it('block_update on blockchain_update_ltctest carries the node block', async () => {
    const pusher = await client(main.port);
    const blocks = new Recorder<BlockUpdate>(await subscribed(pusher, 'blockchain_update_ltctest'), 'block_update');
    const miner = await node.newAddress('bech32');
    const paid = new Recorder<BalanceUpdate>(await subscribed(pusher, `address_ltctest_${miner}`), 'balance_update');
    const [hash] = await node.mine(1, miner);
    const before = Math.floor(Date.now() / 1000);
    await sync();
    const payload = await blocks.next((b) => b.value.blockhash === hash);
    const block = await node.rpc.call<{ height: number; size: number; merkleroot: string; previousblockhash: string; nTx: number; difficulty: number }>('getblock', [hash, 1]);
    assert.equal(payload.type, 'block');
    assert.deepEqual(Object.keys(payload.value).sort(), [
      'block_no', 'blockhash', 'merkleroot', 'mined_by', 'mining_difficulty', 'previous_blockhash', 'size', 'time', 'total_txs',
    ]);
    assert.equal(payload.value.block_no, block.height);
    assert.equal(payload.value.size, block.size);
    assert.equal(payload.value.merkleroot, block.merkleroot);
    assert.equal(payload.value.previous_blockhash, block.previousblockhash);
    assert.equal(payload.value.total_txs, block.nTx);
    assert.equal(payload.value.mined_by, miner, 'regtest coinbases carry no tag: the payout address');
    // REST's spelling (8 decimals, never exponent form: regtest's difficulty is 4.66e-10).
    assert.equal(payload.value.mining_difficulty, (await restData(`/get_block/LTCTEST/${hash}`)).mining_difficulty);
    assert.match(payload.value.mining_difficulty, /^\d+\.\d{8}$/);
    assert.equal(payload.value.mining_difficulty, block.difficulty.toFixed(8));
    // The coinbase paid the subscribed address: its tx is shown as REST's get_tx shows it.
    const coinbase = await paid.next();
    const restTx = await restData(`/get_tx/LTCTEST/${coinbase.value.tx.txid}`);
    assert.deepEqual([coinbase.value.tx.inputs, coinbase.value.tx.outputs], [restTx.inputs, restTx.outputs]);
    assert.equal(coinbase.value.tx.inputs[0]!.address, 'coinbase');
    assert.ok(Number.isInteger(payload.value.time) && Math.abs(payload.value.time - before) <= 5, 'time the block was received');
  });

  it('a mempool tx: tx_update and balance_update for every spelling, and nothing more on confirmation', async () => {
    const pusher = await client(main.port);
    const txs = new Recorder<TxUpdate>(await subscribed(pusher, 'blockchain_update_ltctest'), 'tx_update');
    const legacy = await node.newAddress('legacy');
    const p2sh = await node.newAddress('p2sh-segwit');
    const bech32 = await node.newAddress('bech32');
    const spellings = [legacy, p2sh, legacyP2sh(p2sh), bech32, bech32.toUpperCase()];
    const balances = new Map<string, Recorder<BalanceUpdate>>();
    for (const address of spellings) {
      balances.set(address, new Recorder<BalanceUpdate>(await subscribed(pusher, `address_ltctest_${address}`), 'balance_update'));
    }
    const sent = new Map<string, string>();
    for (const address of [legacy, p2sh, bech32]) sent.set(address, await node.send(address, '1.2345678'));
    await sync();
    const mempoolSize = (await node.rpc.call<{ size: number }>('getmempoolinfo')).size;

    for (const txid of sent.values()) {
      const update = await txs.next((t) => t.value.txid === txid);
      const tx = await nodeTx(txid);
      assert.equal(update.type, 'tx');
      assert.equal(update.value.tx_hex, tx.hex);
      assert.equal(update.value.total_inputs, String(tx.vin.length));
      assert.equal(update.value.total_outputs, String(tx.vout.length));
      assert.equal(typeof update.value.sent_value, 'number', 'a JSON number, as the spec types it');
      assert.equal(update.value.sent_value, Number((await restData(`/tx/LTCTEST/${txid}`)).sent_value), 'the number REST\'s string spells');
      assert.ok(Math.abs(update.value.sent_value - tx.vout.reduce((s, o) => s + o.value, 0)) < 1e-8);
      assert.equal(update.value.unconfirmed_txs, mempoolSize);
      assert.ok(typeof update.value.txpm === 'number' && update.value.txpm >= 1);
      assert.ok(Number.isInteger(update.value.time));
    }

    const scriptHex = (a: string): string => Buffer.from(addressToScript(params, a)).toString('hex');
    for (const address of spellings) {
      const paid = [legacy, p2sh, bech32].find((a) => scriptHex(a) === scriptHex(address))!;
      const txid = sent.get(paid)!;
      const update = await balances.get(address)!.next((b) => b.value.tx.txid === txid);
      assert.equal(update.type, 'address');
      assert.equal(update.value.address, address, 'the spelling of the channel');
      assert.equal(update.value.value_received, '1.23456780');
      assert.equal(update.value.value_sent, '0.00000000');
      assert.equal(update.value.balance_change, '1.23456780');
      assert.equal(update.value.tx.txid, txid);
      const tx = await nodeTx(txid);
      assert.deepEqual(update.value.tx.inputs.map((i) => i.from_output), tx.vin.map((v) => ({ txid: v.txid, output_no: v.vout })));
      const restTx = await restData(`/get_tx/LTCTEST/${txid}`);
      assert.deepEqual([update.value.tx.inputs, update.value.tx.outputs], [restTx.inputs, restTx.outputs], 'inputs and outputs as REST\'s get_tx');
      const output = update.value.tx.outputs.find((o) => o.value === '1.23456780');
      assert.equal(output?.address, paid, `${address}: the output is shown at its canonical address`);
      assert.equal(update.value.tx.outputs.length, tx.vout.length);
    }

    // The wallet may spend one of these unconfirmed outputs in a later send (a value_sent event): count, then confirm.
    const counts = new Map([...balances].map(([address, recorder]) => [address, recorder.events.length]));
    await node.mine(1);
    await sync();
    await delay(300);
    for (const [address, recorder] of balances) assert.equal(recorder.events.length, counts.get(address), `${address}: no new event on confirmation`);
  });

  it('a tx first seen in a block fires balance_update once; spending shows value_sent', async () => {
    const pusher = await client(main.port);
    const address = await node.newAddress('bech32');
    const balance = new Recorder<BalanceUpdate>(await subscribed(pusher, `address_ltctest_${address}`), 'balance_update');
    const txid = await node.send(address, '1');
    await node.mine(1); // before the indexer looks at the mempool
    await sync();
    const first = await balance.next((b) => b.value.tx.txid === txid);
    assert.equal(first.value.value_received, '1.00000000');
    await delay(200);
    assert.equal(balance.events.length, 1);

    const [utxo] = await node.wallet.call<{ txid: string; vout: number }[]>('listunspent', [1, 9999, [address]]);
    const rawTx = await node.wallet.call<string>('createrawtransaction', [[{ txid: utxo!.txid, vout: utxo!.vout }], { [await node.newAddress('bech32')]: '0.999' }]);
    const signed = await node.wallet.call<{ hex: string }>('signrawtransactionwithwallet', [rawTx]);
    const spend = await node.rpc.call<string>('sendrawtransaction', [signed.hex]);
    await sync();
    const second = await balance.next((b) => b.value.tx.txid === spend);
    assert.equal(second.value.value_sent, '1.00000000');
    assert.equal(second.value.value_received, '0.00000000');
    assert.equal(second.value.balance_change, '-1.00000000');
    assert.deepEqual(second.value.tx.inputs[0]?.from_output, { txid: utxo!.txid, output_no: utxo!.vout });
    // Inputs name the spent output's address and value, as v2's get_tx does.
    assert.equal(second.value.tx.inputs[0]?.address, address);
    assert.equal(second.value.tx.inputs[0]?.value, '1.00000000');
  });

  it('after unsubscribe the server sends nothing more on the channel', async () => {
    const pusher = await client(main.port);
    const address = await node.newAddress('legacy');
    const channel = `address_ltctest_${address}`;
    await subscribed(pusher, channel);
    const txs = new Recorder<TxUpdate>(await subscribed(pusher, 'blockchain_update_ltctest'), 'tx_update');
    const onWire: string[] = [];
    pusher.connection.bind('message', (m: { channel?: string }) => {
      if (m.channel) onWire.push(m.channel);
    });
    const subscriptionsBefore = main.realtime.stats().subscriptions;
    pusher.unsubscribe(channel);
    await waitFor(() => main.realtime.stats().subscriptions === subscriptionsBefore - 1, 5000, 'server-side unsubscribe');
    const txid = await node.send(address, '0.5');
    await sync();
    await txs.next((t) => t.value.txid === txid); // the event did flow, on the channel still subscribed
    await delay(200);
    assert.ok(!onWire.includes(channel), 'no frame for the unsubscribed channel');
  });

  it('a price event on the bus reaches ticker_{coin}_{base} subscribers only', async () => {
    const pusher = await client(main.port);
    const usd = new Recorder(await subscribed(pusher, 'ticker_ltc_usd'), 'price_update');
    const eur = new Recorder(await subscribed(pusher, 'ticker_ltc_eur'), 'price_update');
    bus.publish({ kind: 'price', coin: 'LTC', base: 'USD', exchange: 'kraken', price: '84.12000000', time: 1_700_000_000 });
    assert.deepEqual(await usd.next(), {
      type: 'price',
      value: { time: 1_700_000_000, price: '84.12000000', price_base: 'USD', symbol: 'LTC', exchange: 'kraken' },
    });
    await delay(100);
    assert.equal(eur.events.length, 0);
  });

});
