/**
 * Fan-out across processes: a real redis-server, two separate realtime processes on the Redis
 * event bus, and a third party (this test) publishing. pusher-js subscribers on either process
 * receive the same events.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { formatCoins, silentLogger, type DomainEvent, type EventBus, type Transaction } from '../../src/core/index.js';
import { getNetworkParams, scriptToAddress } from '../../src/chains/addressing.js';
import { parseBlock } from '../../src/chains/parsing.js';
import { createRedisEventBus } from '../../src/redis/redis-event-bus.js';
import { connected, pusherClient, Recorder, subscribed, type Pusher } from '../helpers/pusher-clients.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { payoutTx } from '../helpers/payout-tx.js';
import { Redis } from 'ioredis';

const KEY = 'outpoint-redis-test';
const params = getNetworkParams('LTCTEST', 'test');
const repoRoot = new URL('../../', import.meta.url);

async function startRealtimeProcess(redisUrl: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/realtime-process.ts', redisUrl, KEY], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('realtime process did not start')), 30_000);
    createInterface({ input: child.stdout! }).once('line', (l) => {
      clearTimeout(timer);
      resolve(l);
    });
    child.once('exit', (code) => reject(new Error(`realtime process exited with ${code}`)));
  });
  return { child, port: (JSON.parse(line) as { port: number }).port };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, delay(5000).then(() => child.kill('SIGKILL'))]);
  await exited;
}

/** A Litecoin testnet MWEB block from the fixtures: real transactions with every kind of output. */
function fixtureTxs(): readonly Transaction[] {
  const url = new URL('../../test/fixtures/blocks/LTCTEST-2215586.json', import.meta.url);
  const { hex } = JSON.parse(readFileSync(url, 'utf8')) as { hex: string };
  return parseBlock(Buffer.from(hex, 'hex'), params.features).txs;
}

let redis: RedisServer;
let processes: { child: ChildProcess; port: number }[] = [];
let bus: EventBus & { close(): Promise<void> };
const clients: Pusher[] = [];

before(async () => {
  redis = await startRedis();
  processes = await Promise.all([startRealtimeProcess(redis.url), startRealtimeProcess(redis.url)]);
  bus = await createRedisEventBus(redis.url, silentLogger);
});

after(async () => {
  for (const c of clients) c.disconnect();
  await bus?.close();
  for (const p of processes) await stop(p.child);
  await redis?.stop();
});

describe('realtime over the Redis event bus', () => {
  it('events published by a third process reach pusher-js subscribers on both realtime processes', async () => {
    const tx = fixtureTxs().find((t) => !t.isCoinbase && t.outputs.some((o) => scriptToAddress(params, o.script) !== null))!;
    const output = tx.outputs.find((o) => scriptToAddress(params, o.script) !== null)!;
    const address = scriptToAddress(params, output.script)!;

    const perProcess = [];
    for (const { port } of processes) {
      const pusher = pusherClient(port, KEY);
      clients.push(pusher);
      await connected(pusher);
      const chain = await subscribed(pusher, 'blockchain_update_ltctest');
      perProcess.push({
        blocks: new Recorder<{ value: Record<string, unknown> }>(chain, 'block_update'),
        txs: new Recorder<{ value: Record<string, unknown> }>(chain, 'tx_update'),
        balances: new Recorder<{ value: Record<string, unknown> & { tx: { txid: string } } }>(await subscribed(pusher, `address_ltctest_${address}`), 'balance_update'),
        prices: new Recorder<{ value: Record<string, unknown> }>(await subscribed(pusher, 'ticker_btc_usd'), 'price_update'),
      });
    }
    const local: DomainEvent[] = [];
    bus.subscribe((e) => local.push(e));

    const events: DomainEvent[] = [
      {
        kind: 'block_connected', network: 'LTCTEST', height: 2215586, hash: '3000cc2076a568a8eb5f56a06112a57264446e2c7d2cca28cdc85d91820dfa17',
        prevHash: '604c342e133eaedb673fed49c15068f5a4be192ffde29d5e2bbf4e864c459dbd', merkleRoot: 'ab'.repeat(32), time: 1_640_000_000,
        bits: 0x1e0fffff, size: 12345, txCount: 7, minerAddress: address, minerTag: null, receivedAt: 1_700_000_001,
      },
      { kind: 'tx_accepted', network: 'LTCTEST', tx, seenAt: 1_700_000_002, inputValue: null, deltas: [], mempoolSize: 42, prevouts: null },
      { kind: 'address_touched', network: 'LTCTEST', txid: tx.txid, tx, delta: { script: output.script, txid: tx.txid, received: output.value, sent: 0n }, confirmed: false, prevouts: [null] },
      { kind: 'price', coin: 'BTC', base: 'USD', exchange: 'bitstamp', price: '65000.12', time: 1_700_000_003 },
    ];
    for (const event of events) bus.publish(event);

    const rawHex = Buffer.from(tx.raw).toString('hex');
    const seen = [];
    for (const p of perProcess) {
      const block = await p.blocks.next();
      assert.equal(block.value['blockhash'], '3000cc2076a568a8eb5f56a06112a57264446e2c7d2cca28cdc85d91820dfa17');
      assert.equal(block.value['block_no'], 2215586);
      assert.equal(block.value['mined_by'], address, 'no tag: the miner address');
      const txUpdate = await p.txs.next();
      assert.equal(txUpdate.value['txid'], tx.txid);
      assert.equal(txUpdate.value['tx_hex'], rawHex, 'transaction re-parsed from its bytes');
      assert.equal(txUpdate.value['unconfirmed_txs'], 42);
      const balance = await p.balances.next();
      assert.equal(balance.value['address'], address);
      assert.equal(balance.value.tx.txid, tx.txid);
      assert.equal(balance.value['value_received'], formatCoins(output.value));
      const price = await p.prices.next();
      assert.deepEqual(price.value, { time: 1_700_000_003, price: '65000.12000000', price_base: 'USD', symbol: 'BTC', exchange: 'bitstamp' });
      seen.push({ block, txUpdate, balance, price });
    }
    assert.deepEqual(seen[0], seen[1], 'both processes publish identical payloads');
    await delay(300);
    assert.equal(local.length, events.length, 'the publishing process delivers locally once, not again from the Redis echo');
    for (const p of perProcess) {
      assert.equal(p.blocks.events.length + p.txs.events.length + p.balances.events.length + p.prices.events.length, 4, 'each event once');
    }
  });

  it('a payout to 5,000 addresses crosses Redis with its tx once per batch and reaches subscribers of its addresses', async () => {
    const tx = payoutTx(5_000);
    const watched = [0, 2_500, 4_999].map((i) => ({ output: tx.outputs[i]!, address: scriptToAddress(params, tx.outputs[i]!.script)! }));
    const recorders = [];
    for (const { port } of processes) {
      const pusher = pusherClient(port, KEY);
      clients.push(pusher);
      await connected(pusher);
      for (const { address } of watched) {
        recorders.push({ address, balances: new Recorder<{ value: Record<string, unknown> & { tx: { txid: string; outputs: unknown[] } } }>(await subscribed(pusher, `address_ltctest_${address}`), 'balance_update') });
      }
    }
    // What crosses Redis, seen by a plain subscriber of the bus's channel.
    const tap = new Redis(redis.url);
    let bytes = 0;
    let messages = 0;
    tap.on('message', (_channel: string, message: string) => {
      bytes += Buffer.byteLength(message);
      messages += 1;
    });
    await tap.subscribe('outpoint:events');
    try {
      const prevouts = [null];
      for (const output of tx.outputs) {
        bus.publish({ kind: 'address_touched', network: 'LTCTEST', txid: tx.txid, tx, confirmed: false, prevouts, delta: { script: output.script, txid: tx.txid, received: output.value, sent: 0n } });
      }
      for (const { address, balances } of recorders) {
        const balance = await balances.next();
        assert.equal(balance.value['address'], address);
        assert.equal(balance.value.tx.txid, tx.txid);
        assert.equal(balance.value.tx.outputs.length, 5_000);
        assert.equal(balance.value['value_received'], formatCoins(1_000n));
      }
      // One event per message carried the ~160 KB tx 5,000 times (~1.6 GB), past Redis's pub/sub buffer.
      assert.ok(bytes < 4 * 2 * tx.raw.length + 5_000 * 400, `${bytes} bytes in ${messages} messages for a ${tx.raw.length} B tx`);
    } finally {
      tap.disconnect();
    }
  });
});
