/**
 * What clients receive for each domain event, byte for byte: realtime frames on every channel an event goes to (two
 * spellings of one address included), the catch-up feed's answers (GET /api/v2/events) and the webhook bodies, for a
 * fixed set of events (a mempool tx paying several addresses, blocks, a double spend and its conflict, confirmations,
 * a reorg that removes a tx, a price). Everything is compared with event-shapes.golden.json, recorded from the code
 * before the event catalogue (issue 48) and kept since: a refactor of how events are rendered must not change a byte.
 * Where a change of shape is meant, `EVENT_SHAPES_UPDATE=1` rewrites the file (and the diff says what changed).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';
import { getNetworkParams, scriptToAddress } from '../../src/chains/addressing.js';
import { encodeBase58Address } from '../../src/chains/address/base58-address.js';
import { parseTransaction } from '../../src/chains/tx/tx-parser.js';
import { serializeTransaction } from '../../src/chains/tx/tx-serializer.js';
import { MemoryEventBus, noPrices, silentLogger, type Block, type ConnectedBlock, type DomainEvent, type EventBus, type NetworkId, type Transaction } from '../../src/core/index.js';
import type { NewDelivery, WebhookSpec, WebhookStore } from '../../src/core/store/webhook-store.js';
import { buildHttpApp } from '../../src/main/wiring/http-wiring.js';
import { EventLogEntries } from '../../src/services/events/event-log-entries.js';
import { attachRealtime, type RealtimeHandle } from '../../src/realtime/attach-realtime.js';
import { LoggedEventBus } from '../../src/services/events/logged-event-bus.js';
import { tappedBus } from '../../src/services/webhooks/tapped-bus.js';
import { WebhookIndex } from '../../src/services/webhooks/webhook-index.js';
import { WebhookLimits } from '../../src/services/webhooks/webhook-limits.js';
import { WebhookMatcher } from '../../src/services/webhooks/webhook-matcher.js';
import { RpcBroadcaster } from '../../src/node/rpc-broadcaster.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { waitFor } from '../helpers/wait-for.js';

const GOLDEN = new URL('./event-shapes.golden.json', import.meta.url);
const NET: NetworkId = 'LTCTEST';
const params = getNetworkParams(NET, 'regtest');
const KEY = 'event-shapes-key';
/** The clock of everything that reads one (log times, the webhook budget's day): fixed, so the bytes are. */
const NOW_S = 1_700_000_000;

const hash20 = (label: string): Buffer => createHash('sha256').update(label).digest().subarray(0, 20);
const hash32 = (label: string): string => createHash('sha256').update(label).digest('hex');
const script = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));
/** The addresses the events touch: one of each kind a client watches. */
const S = {
  segwit: script(`0014${hash20('segwit').toString('hex')}`),
  p2sh: script(`a914${hash20('p2sh').toString('hex')}87`),
  legacy: script(`76a914${hash20('legacy').toString('hex')}88ac`),
  taproot: script(`5120${createHash('sha256').update('taproot').digest('hex')}`),
  miner: script(`76a914${hash20('miner').toString('hex')}88ac`),
};
const address = (s: Uint8Array): string => scriptToAddress(params, s)!;
/** Channels as clients spell them: the P2SH address in both of Litecoin's versions, the segwit one in upper case too. */
const CHANNELS = [
  'blockchain_update_ltctest',
  `address_ltctest_${address(S.segwit)}`,
  `address_ltctest_${address(S.segwit).toUpperCase()}`,
  `address_ltctest_${address(S.p2sh)}`,
  `address_ltctest_${encodeBase58Address(params.scriptHashVersions[1]!, hash20('p2sh'))}`,
  `address_ltctest_${address(S.legacy)}`,
  `address_ltctest_${address(S.taproot)}`,
  `address_ltctest_${address(S.miner)}`,
  'ticker_ltc_usd',
];

let locktime = 0;
function tx(inputs: readonly { txid: string; vout: number }[] | 'coinbase', outputs: readonly [Uint8Array, bigint][]): Transaction {
  locktime += 1;
  const coinbase = inputs === 'coinbase';
  const draft: Transaction = {
    txid: '', wtxid: '', version: 2, locktime,
    inputs: coinbase
      ? [{ prevTxid: '0'.repeat(64), prevVout: 0xffffffff, scriptSig: Uint8Array.from([1, locktime]), sequence: 0xffffffff, witness: [] }]
      : inputs.map((p) => ({ prevTxid: p.txid, prevVout: p.vout, scriptSig: Uint8Array.from([0x51]), sequence: 0xfffffffd, witness: [] })),
    outputs: outputs.map(([s, value]) => ({ script: s, value })),
    size: 0, weight: 0, vsize: 0, hasWitness: false, isCoinbase: coinbase, isHogEx: false, hasMwebBody: false, raw: new Uint8Array(),
  };
  return parseTransaction(serializeTransaction(draft));
}

function block(label: string, prevHash: string, txs: readonly Transaction[], time: number): Block {
  const size = 80 + txs.reduce((sum, t) => sum + t.size, 0);
  return {
    header: { hash: hash32(`block-${label}`), version: 0x20000000, prevHash, merkleRoot: hash32(`merkle-${label}`), time, bits: 0x207fffff, nonce: 1, raw: new Uint8Array(80) },
    auxpow: null, txs, mweb: null, size, strippedSize: size, weight: size * 4, raw: new Uint8Array(size),
  };
}

const COIN = 100_000_000n;

interface Recorded {
  realtime: Record<string, string[]>;
  feed: Record<string, string>;
  webhooks: { id: string; hookId: number; event: string; body: string }[];
}

/** The store, the publishing buses as `serve` stacks them, realtime on an HTTP server, and the API app. */
class Scene {
  readonly store = new SqliteStore({ path: ':memory:' });
  readonly bus = new MemoryEventBus((error) => assert.fail(String(error)));
  readonly deliveries: NewDelivery[] = [];
  matcher!: WebhookMatcher;
  logged!: LoggedEventBus;
  publish!: EventBus;
  http!: Server;
  realtime!: RealtimeHandle;
  app!: FastifyInstance;
  readonly sockets = new Map<string, { ws: WebSocket; frames: string[] }>();

  async start(): Promise<void> {
    await this.store.migrate();
    const net = this.store.network(NET);
    await net.setSyncStatus({ phase: 'ready', height: null, targetHeight: null, etaSeconds: 0, updatedAt: 1 });
    const networks = new Map([[NET, params]]);
    // Every delivery the matcher stores, in the order it stores them.
    const real = this.store.webhooks();
    const hooks: WebhookStore = new Proxy(real, {
      get: (target, name, receiver) => name === 'enqueue'
        ? (list: readonly NewDelivery[], now: number) => {
          this.deliveries.push(...list);
          return target.enqueue(list, now);
        }
        : Reflect.get(target, name, receiver) as unknown,
    });
    const index = new WebhookIndex(hooks, [NET], 0, () => NOW_S * 1000);
    const limits = new WebhookLimits({ maxHooks: 20, deliveriesPerDay: 10_000 }, []);
    this.matcher = new WebhookMatcher(hooks, index, new Map([[NET, net]]), this.store.accounts(), limits, () => undefined, silentLogger, () => NOW_S * 1000);
    this.logged = new LoggedEventBus(this.bus, this.store.events(), new EventLogEntries(networks).render, silentLogger, () => NOW_S);
    this.publish = tappedBus(this.logged, this.matcher);

    this.http = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    this.realtime = attachRealtime(this.http, { appKey: KEY, bus: this.bus, networks, logger: silentLogger });
    this.app = await buildHttpApp({
      networks: new Map([[NET, { params, reader: net }]]),
      prices: noPrices,
      broadcaster: new RpcBroadcaster(new Map()),
      publicUrl: 'https://outpoint.test',
      rateLimitPerSecond: 0,
      redisUrl: null,
      logger: silentLogger,
      shortLinks: this.store.shortAddresses(),
      eventLog: this.store.events(),
    });
  }

  async subscribeAll(): Promise<void> {
    const port = (this.http.address() as AddressInfo).port;
    for (const channel of CHANNELS) {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${KEY}?protocol=7&client=golden&version=1`);
      const frames: string[] = [];
      ws.on('message', (data: Buffer) => frames.push(data.toString('utf8')));
      await new Promise<void>((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      await waitFor(() => frames.some((f) => f.includes('pusher:connection_established')), 10_000, 'connected');
      ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel } }));
      await waitFor(() => frames.some((f) => f.includes('subscription_succeeded')), 10_000, `subscribed to ${channel}`);
      frames.length = 0;
      this.sockets.set(channel, { ws, frames });
    }
  }

  /** Publishes as the indexer does, then waits until the log and the matcher have taken everything up. */
  async emit(events: readonly DomainEvent[]): Promise<void> {
    for (const event of events) this.publish.publish(event);
    await this.logged.drain();
    await this.matcher.drain();
  }

  async close(): Promise<void> {
    for (const { ws } of this.sockets.values()) ws.terminate();
    await this.realtime?.close();
    await new Promise((resolve) => this.http?.close(resolve));
    await this.app?.close();
    await this.store.close();
  }
}

function addressEvents(t: Transaction, connected: { deltas: ConnectedBlock['deltas'] }, confirmed: boolean, prevouts: ConnectedBlock['prevouts'] | null, skip: ReadonlySet<string> = new Set()): DomainEvent[] {
  return connected.deltas.filter((d) => d.txid === t.txid && !skip.has(d.txid))
    .map((delta) => ({ kind: 'address_touched', network: NET, txid: t.txid, tx: t, delta, confirmed, prevouts: prevouts?.get(t.txid) ?? null }));
}

function blockConnected(b: Block, c: ConnectedBlock, miner: { address: string | null; tag: string | null }, receivedAt: number): DomainEvent {
  return {
    kind: 'block_connected', network: NET, height: c.height, hash: c.hash, prevHash: c.prevHash, merkleRoot: b.header.merkleRoot, time: b.header.time,
    bits: b.header.bits, size: c.size, txCount: c.txCount, minerAddress: miner.address, minerTag: miner.tag, receivedAt,
  };
}

/** The whole story, published step by step; returns what every client saw. */
async function record(scene: Scene): Promise<Recorded> {
  const net = scene.store.network(NET);
  const accounts = scene.store.accounts();
  await accounts.setPlan('free', 1000, 1);
  const accountId = (await accounts.createAccount({ email: 'shop@example.org', plan: 'free', createdAt: 1, periodEndsAt: 2, willRenew: true })).id;
  const hook = (over: Partial<WebhookSpec>): WebhookSpec => ({
    accountId, network: NET, event: 'address', url: 'https://shop.example.org/hook', secret: 'secret', address: null, script: null, txid: null, confirmations: null, ...over,
  });
  const hex = (s: Uint8Array): string => Buffer.from(s).toString('hex');

  // Blocks 0 and 1 fund the segwit and P2SH addresses.
  const cb0 = tx('coinbase', [[S.miner, 50n * COIN]]);
  const cb1 = tx('coinbase', [[S.segwit, 30n * COIN], [S.p2sh, 20n * COIN]]);
  const b0 = block('0', '0'.repeat(64), [cb0], NOW_S - 3000);
  const b1 = block('1', b0.header.hash, [cb1], NOW_S - 2900);
  const [c0, c1] = await net.connectBlocks([{ height: 0, block: b0 }, { height: 1, block: b1 }]);
  await scene.emit([
    blockConnected(b0, c0!, { address: address(S.miner), tag: null }, NOW_S - 2990),
    ...addressEvents(cb0, c0!, true, c0!.prevouts),
    blockConnected(b1, c1!, { address: address(S.segwit), tag: 'golden-pool' }, NOW_S - 2890),
    ...addressEvents(cb1, c1!, true, c1!.prevouts),
  ]);

  // The hooks: each kind, on the addresses and txs the story touches.
  const store = scene.store.webhooks();
  const pay = tx([{ txid: cb1.txid, vout: 0 }, { txid: cb1.txid, vout: 1 }], [[S.legacy, 12n * COIN + 34_567_891n], [S.taproot, 7n * COIN], [S.segwit, 30n * COIN - 1_000_000n]]);
  await store.create(hook({ event: 'address', address: address(S.segwit), script: hex(S.segwit) }), NOW_S, 20);
  await store.create(hook({ event: 'address', address: encodeBase58Address(params.scriptHashVersions[1]!, hash20('p2sh')), script: hex(S.p2sh) }), NOW_S, 20);
  await store.create(hook({ event: 'address', address: address(S.legacy), script: hex(S.legacy) }), NOW_S, 20);
  await store.create(hook({ event: 'block' }), NOW_S, 20);
  await store.create(hook({ event: 'double_spend', address: address(S.taproot), script: hex(S.taproot) }), NOW_S, 20);
  await store.create(hook({ event: 'double_spend', txid: pay.txid }), NOW_S, 20);
  const confirmations = (await store.create(hook({ event: 'tx_confirmations', txid: pay.txid, confirmations: 2 }), NOW_S, 20))!;
  // As registration does (services/webhooks/webhook-service.ts): the tx is watched from the start.
  await store.watch({ hookId: confirmations.id, txid: pay.txid, target: 2, delivered: -1 }, NET);

  // A mempool tx spending both funded outputs and paying three addresses (one of them back to the first).
  const [added] = await net.addMempoolTxs([{ tx: pay, seenAt: NOW_S - 2000 }]);
  const outSum = pay.outputs.reduce((s, o) => s + o.value, 0n);
  await scene.emit([
    { kind: 'tx_accepted', network: NET, tx: pay, seenAt: NOW_S - 2000, inputValue: added!.fee! + outSum, deltas: added!.deltas, mempoolSize: 1, prevouts: added!.prevouts },
    ...added!.deltas.map((delta): DomainEvent => ({ kind: 'address_touched', network: NET, txid: pay.txid, tx: pay, delta, confirmed: false, prevouts: added!.prevouts })),
  ]);

  // A competing spend of the P2SH output, seen by peers and then in the node's mempool.
  const rival = tx([{ txid: cb1.txid, vout: 1 }], [[S.taproot, 19n * COIN]]);
  const rivalAdded = (await net.addMempoolTxs([{ tx: rival, seenAt: NOW_S - 1900 }]))[0]!;
  const scripts = [S.segwit, S.p2sh, S.legacy, S.taproot];
  const outpoint = [{ txid: cb1.txid, vout: 1 }];
  await scene.emit([
    { kind: 'tx_accepted', network: NET, tx: rival, seenAt: NOW_S - 1900, inputValue: 20n * COIN, deltas: rivalAdded.deltas, mempoolSize: 2, prevouts: rivalAdded.prevouts },
    ...rivalAdded.deltas.map((delta): DomainEvent => ({ kind: 'address_touched', network: NET, txid: rival.txid, tx: rival, delta, confirmed: false, prevouts: rivalAdded.prevouts })),
    { kind: 'double_spend', network: NET, txid: pay.txid, conflictingTxids: [rival.txid], reason: 'double_spend', seenIn: 'peers', outpoints: outpoint, scripts, time: NOW_S - 1950 },
    { kind: 'double_spend', network: NET, txid: rival.txid, conflictingTxids: [pay.txid], reason: 'replaced', seenIn: 'mempool', outpoints: outpoint, scripts: [S.p2sh, S.taproot, S.p2sh], time: NOW_S - 1900 },
  ]);

  // Block 2 confirms the first spend (the rival is conflicted) and a tx first seen in it.
  const cb2 = tx('coinbase', [[S.miner, 50n * COIN + 2_000_000n]]);
  const later = tx([{ txid: pay.txid, vout: 1 }], [[S.legacy, 3n * COIN], [S.p2sh, 4n * COIN - 1_000_000n]]);
  const b2 = block('2', b1.header.hash, [cb2, pay, later], NOW_S - 1500);
  const [c2] = await net.connectBlocks([{ height: 2, block: b2 }]);
  const announced = new Set(c2!.confirmedFromMempool);
  await scene.emit([
    blockConnected(b2, c2!, { address: null, tag: null }, NOW_S - 1490),
    ...c2!.confirmedFromMempool.map((txid): DomainEvent => ({ kind: 'tx_removed', network: NET, txid, reason: 'confirmed' })),
    ...c2!.conflicted.map((txid): DomainEvent => ({ kind: 'tx_removed', network: NET, txid, reason: 'conflicted' })),
    ...[cb2, pay, later].flatMap((t) => addressEvents(t, c2!, true, c2!.prevouts, announced)),
    { kind: 'double_spend', network: NET, txid: rival.txid, conflictingTxids: [pay.txid], reason: 'conflicted', seenIn: 'block', outpoints: outpoint, scripts: [S.p2sh, S.taproot], time: NOW_S - 1490 },
  ]);

  // Blocks 3 and 4: the watched tx reaches its target; a price comes in between.
  const cb3 = tx('coinbase', [[S.miner, 50n * COIN]]);
  const b3 = block('3', b2.header.hash, [cb3], NOW_S - 1200);
  const [c3] = await net.connectBlocks([{ height: 3, block: b3 }]);
  await scene.emit([blockConnected(b3, c3!, { address: address(S.miner), tag: null }, NOW_S - 1190), ...addressEvents(cb3, c3!, true, c3!.prevouts)]);
  await scene.emit([{ kind: 'price', coin: 'LTC', base: 'USD', exchange: 'bitstamp', price: '71.2345', time: NOW_S - 1100 }]);
  const cb4 = tx('coinbase', [[S.miner, 50n * COIN]]);
  const b4 = block('4', b3.header.hash, [cb4], NOW_S - 1000);
  const [c4] = await net.connectBlocks([{ height: 4, block: b4 }]);
  await scene.emit([blockConnected(b4, c4!, { address: address(S.miner), tag: null }, NOW_S - 990), ...addressEvents(cb4, c4!, true, c4!.prevouts)]);

  // A reorg back to block 1: the spends leave the chain (nothing offers them back), then a longer branch.
  for (const b of [b4, b3, b2]) {
    const gone = await net.disconnectTip(b.header.hash);
    await scene.emit([{ kind: 'block_disconnected', network: NET, height: gone.height, hash: gone.hash }]);
  }
  let prev = b1.header.hash;
  for (const height of [2, 3, 4, 5]) {
    const cb = tx('coinbase', [[S.taproot, 50n * COIN]]);
    const b = block(`alt-${height}`, prev, [cb], NOW_S - 900 + height * 10);
    const [c] = await net.connectBlocks([{ height, block: b }]);
    await scene.emit([blockConnected(b, c!, { address: null, tag: `alt-pool-${height}` }, NOW_S - 890 + height * 10), ...addressEvents(cb, c!, true, c!.prevouts)]);
    prev = b.header.hash;
  }
  await scene.emit([{ kind: 'tx_removed', network: NET, txid: rival.txid, reason: 'evicted' }]);

  // The end marker: a double spend on every address channel and the blockchain channel, and a last price.
  const marker = hash32('end-marker');
  await scene.emit([
    { kind: 'double_spend', network: NET, txid: marker, conflictingTxids: [], reason: 'double_spend', seenIn: 'peers', outpoints: [], scripts: Object.values(S), time: NOW_S },
    { kind: 'price', coin: 'LTC', base: 'USD', exchange: 'marker', price: '1', time: NOW_S },
  ]);
  for (const [channel, { frames }] of scene.sockets) {
    const end = channel.startsWith('ticker_') ? 'marker' : marker;
    await waitFor(() => frames.some((f) => f.includes(end)), 10_000, `the end marker on ${channel}`);
  }

  const feed: Record<string, string> = {};
  for (const channel of CHANNELS) {
    const reply = await scene.app.inject({ method: 'GET', url: `/api/v2/events/${NET}?channel=${encodeURIComponent(channel)}&after=0` });
    feed[channel] = `${reply.statusCode} ${reply.body}`;
  }
  const paged = await scene.app.inject({ method: 'GET', url: `/api/v2/events/${NET}?channel=${CHANNELS[1]}&after=3&limit=2` });
  feed[`${CHANNELS[1]} after=3 limit=2`] = `${paged.statusCode} ${paged.body}`;
  return {
    realtime: Object.fromEntries([...scene.sockets].map(([channel, { frames }]) => [channel, frames])),
    feed,
    webhooks: scene.deliveries.map((d) => ({ id: d.id, hookId: d.hookId, event: d.event, body: d.body })),
  };
}

let scene: Scene;
before(async () => {
  scene = new Scene();
  await scene.start();
  await scene.subscribeAll();
});
after(async () => scene?.close());

describe('event shapes (realtime, catch-up feed, webhooks)', () => {
  it('are byte for byte what they were before the event catalogue', async () => {
    const recorded = await record(scene);
    const text = `${JSON.stringify(recorded, null, 1)}\n`;
    if (process.env['EVENT_SHAPES_UPDATE'] === '1') writeFileSync(GOLDEN, text);
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Recorded;
    for (const channel of CHANNELS) assert.deepEqual(recorded.realtime[channel], golden.realtime[channel], `realtime frames on ${channel}`);
    assert.deepEqual(recorded.feed, golden.feed, 'catch-up feed answers');
    assert.deepEqual(recorded.webhooks, golden.webhooks, 'webhook deliveries');
    assert.equal(text, readFileSync(GOLDEN, 'utf8'), 'the whole record');
    // The story reaches what it means to: every kind of frame, delivery and feed row.
    const frames = Object.values(recorded.realtime).flat().join('\n');
    for (const kind of ['block_update', 'tx_update', 'balance_update', 'double_spend', 'price_update']) assert.ok(frames.includes(`"event":"${kind}"`), kind);
    for (const event of ['address', 'block', 'double_spend', 'tx_confirmations']) assert.ok(recorded.webhooks.some((d) => d.event === event), event);
    assert.ok(recorded.webhooks.some((d) => d.body.includes('"reorg":true') && d.body.includes('"removed":true')), 'a reorg removal');
    assert.ok(Object.values(recorded.feed).join('\n').includes('"inputs":[{'), 'a feed row with a rebuilt tx');
  });
});
