/**
 * Realtime server under 10,000 websocket connections (load generator in a separate process):
 * connection setup rate, fan-out throughput, block latency from the node's notification to
 * delivery (litecoind by polling, bitcoind by ZMQ), and server RSS per idle connection.
 * Env: BENCH_RT_CONNECTIONS (10000), BENCH_RT_BLOCKS (20 per node), BENCH_RT_EVENTS (100),
 * BENCH_RT_SEND_THREADS (the service's default: half the cores, at least 1).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface, type Interface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MemoryEventBus, silentLogger, type NetworkId, type Transaction } from '../src/core/index.js';
import { getNetworkParams, type NetworkParams } from '../src/chains/addressing.js';
import { defaultSendThreads } from '../src/config/config-loader.js';
import { parseBlock } from '../src/chains/parsing.js';
import { NetworkIndexer } from '../src/indexer/network-indexer.js';
import type { BlockNotifier } from '../src/node/notifiers/block-notifier.js';
import { PollNotifier } from '../src/node/notifiers/poll-notifier.js';
import { RpcChainSource } from '../src/node/rpc-chain-source.js';
import { ZmqNotifier } from '../src/node/notifiers/zmq-notifier.js';
import { applyServerLimits, resolveServerLimits } from '../src/http/server-limits.js';
import { attachRealtime } from '../src/realtime/attach-realtime.js';
import { channelEventFrame } from '../src/realtime/protocol/protocol-messages.js';
import { nativeSendAll } from '../src/realtime/sending/send-all.js';
import { txUpdatePayload } from '../src/services/events/catalogue/tx-update.payload.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { startBitcoind, startLitecoind, waitFor, type RegtestNode } from '../test/helpers/regtest-node.js';

const CONNECTIONS = Number(process.env['BENCH_RT_CONNECTIONS'] ?? 10_000);
const BLOCKS = Number(process.env['BENCH_RT_BLOCKS'] ?? 20);
const EVENTS = Number(process.env['BENCH_RT_EVENTS'] ?? 100);
const SEND_THREADS = Number(process.env['BENCH_RT_SEND_THREADS'] ?? defaultSendThreads());
const KEY = 'bench-key';
const nowMs = (): number => performance.timeOrigin + performance.now();

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function settledRss(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().rss;
}

interface Followed {
  readonly node: RegtestNode;
  readonly params: NetworkParams;
  readonly notifier: BlockNotifier;
  readonly indexer: NetworkIndexer;
  readonly notifiedAt: Map<string, number>;
  readonly how: string;
}

async function follow(node: RegtestNode, params: NetworkParams, store: SqliteStore, bus: MemoryEventBus): Promise<Followed> {
  const notifiedAt = new Map<string, number>();
  const notifier: BlockNotifier = node.zmqUrl ? new ZmqNotifier(node.node, { sequence: node.zmqUrl }) : new PollNotifier(node.node, { pollMs: 25 });
  const indexer = new NetworkIndexer({ params, source: new RpcChainSource(node.node), store: store.network(params.id), bus, logger: silentLogger });
  notifier.on('tip', ({ hash }) => {
    notifiedAt.set(hash, nowMs());
    indexer.poke();
  });
  notifier.on('mempool', () => indexer.poke());
  await node.mine(1);
  indexer.start();
  await notifier.start();
  await waitFor(() => indexer.isCaughtUp, 30_000, `${params.id} indexer caught up`);
  return { node, params, notifier, indexer, notifiedAt, how: node.zmqUrl ? 'ZMQ sequence' : 'RPC polling every 25 ms' };
}

class LoadProcess {
  private readonly lines: Interface;
  private readonly queue: Record<string, unknown>[] = [];

  constructor(private readonly child: ChildProcess) {
    this.lines = createInterface({ input: child.stdout! });
    this.lines.on('line', (line) => this.queue.push(JSON.parse(line) as Record<string, unknown>));
  }

  send(command: unknown): void {
    this.child.stdin!.write(`${JSON.stringify(command)}\n`);
  }

  async next(event: string, timeoutMs = 300_000): Promise<Record<string, unknown>> {
    await waitFor(() => this.queue.some((l) => l['event'] === event) || this.child.exitCode !== null, timeoutMs, `load ${event}`, 20);
    const index = this.queue.findIndex((l) => l['event'] === event);
    if (index < 0) throw new Error(`load process exited (${this.child.exitCode}) before ${event}`);
    return this.queue.splice(index, 1)[0]!;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.send({ cmd: 'close' });
    await Promise.race([exited, delay(10_000).then(() => this.child.kill('SIGKILL'))]);
  }
}

function sampleTx(): Transaction {
  const url = new URL('../test/fixtures/blocks/LTCTEST-2215586.json', import.meta.url);
  const { hex } = JSON.parse(readFileSync(url, 'utf8')) as { hex: string };
  const txs = parseBlock(Buffer.from(hex, 'hex'), getNetworkParams('LTCTEST').features).txs;
  return txs.find((t) => !t.isCoinbase && t.inputs.length <= 2 && t.outputs.length <= 3) ?? txs[1]!;
}

export async function run(): Promise<void> {
  console.log(`realtime bench: ${CONNECTIONS} connections, ${BLOCKS} blocks per node, ${EVENTS} fan-out events (node ${process.version}; ${nativeSendAll ? 'native' : 'JavaScript'} sender, ${SEND_THREADS} send thread(s))`);
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-rt-bench-'));
  const store = new SqliteStore({ path: join(dir, 'bench.db') });
  await store.migrate();
  const bus = new MemoryEventBus();
  const nodes: RegtestNode[] = [];
  const followed: Followed[] = [];
  let load: LoadProcess | null = null;
  const http = createServer((_req, res) => res.writeHead(404).end());
  // The API server's timeouts and connection cap (raised for the generator's connections), as outpoint serve sets them.
  applyServerLimits(http, resolveServerLimits({ maxConnections: CONNECTIONS + 1_000 }));
  try {
    const ltc = await startLitecoind({ wallet: true });
    nodes.push(ltc);
    const btc = await startBitcoind({ wallet: true });
    nodes.push(btc);
    const ltcParams = getNetworkParams('LTCTEST', 'regtest');
    const btcParams = getNetworkParams('BTCTEST', 'regtest');
    followed.push(await follow(ltc, ltcParams, store, bus), await follow(btc, btcParams, store, bus));
    const networks = new Map<NetworkId, NetworkParams>([['LTCTEST', ltcParams], ['BTCTEST', btcParams]]);
    // Subscribed before the realtime server: when the indexer's event is published (fan-out starts).
    const emittedAt = new Map<string, number>();
    bus.subscribe((event) => {
      if (event.kind === 'block_connected') emittedAt.set(event.hash, nowMs());
    });
    const realtime = attachRealtime(http, { appKey: KEY, bus, networks, logger: silentLogger, limits: { maxConnections: CONNECTIONS + 100, maxConnectionsPerIp: CONNECTIONS + 100 }, sendThreads: SEND_THREADS });
    // Subscribed after the realtime server, so this runs once the block's frames are written to every socket.
    const writtenAt = new Map<string, number>();
    bus.subscribe((event) => {
      if (event.kind === 'block_connected') writtenAt.set(event.hash, nowMs());
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const port = (http.address() as AddressInfo).port;

    // Channels across every family: both chains, a third of the tickers each, 100 address channels.
    const addresses = await Promise.all(Array.from({ length: 100 }, () => ltc.newAddress('bech32')));
    const tickers = ['ticker_btc_usd', 'ticker_ltc_usd', 'ticker_doge_usd'];
    const channels = addresses.map((a, i) => ['blockchain_update_ltctest', 'blockchain_update_btctest', tickers[i % 3]!, `address_ltctest_${a}`]);
    const rssBefore = settledRss();
    const config = JSON.stringify({ port, key: KEY, connections: CONNECTIONS, channels });
    const quoted = `'${config.replace(/'/g, `'\\''`)}'`;
    // 10,000 sockets need more descriptors than the usual soft limit of 1024.
    const command = `ulimit -n 65536 2>/dev/null || ulimit -n $(ulimit -Hn); exec "${process.execPath}" --import tsx bench/realtime-load.ts ${quoted}`;
    load = new LoadProcess(spawn('bash', ['-c', command], { cwd: new URL('..', import.meta.url), stdio: ['pipe', 'pipe', 'inherit'] }));
    const ready = await load.next('ready');
    await delay(2000);
    const stats = realtime.stats();
    const rssPerConnection = (settledRss() - rssBefore) / stats.connections;
    console.log(`  connections: ${stats.connections} open, ${stats.subscriptions} subscriptions on ${stats.channels} channels`);
    console.log(`  connection setup: ${Math.round(Number(ready['perSecond']))} connections/s (each connected and subscribed to 4 channels; ${Number(ready['seconds']).toFixed(1)} s for all)`);
    console.log(`  server RSS per idle connection: ${(rssPerConnection / 1024).toFixed(1)} KiB`);

    for (const f of followed) {
      // Mined to a wallet that is then unloaded: the node's wallet would otherwise scan each block on its
      // own thread while we fan out, and a node serving an explorer runs without one.
      const minerWallet = await f.node.createWallet('miner');
      const miner = await minerWallet.call<string>('getnewaddress', ['', 'bech32']);
      await f.node.rpc.call('unloadwallet', ['miner']);
      const mined: Record<string, number> = {};
      for (let i = 0; i < BLOCKS; i++) {
        const [hash] = await f.node.mine(1, miner);
        mined[hash!] = nowMs();
        await delay(300);
      }
      await delay(500);
      const notified = Object.fromEntries(Object.keys(mined).map((h) => [h, f.notifiedAt.get(h) ?? NaN]));
      load.send({ cmd: 'latency', from: notified });
      const fromNotification = await load.next('latency');
      load.send({ cmd: 'latency', from: mined });
      const fromMining = await load.next('latency');
      const ms = (v: unknown): string => `${Number(v).toFixed(1)} ms`;
      const since = (at: Map<string, number>): number[] =>
        Object.keys(mined).map((h) => (at.get(h) ?? NaN) - (f.notifiedAt.get(h) ?? NaN)).sort((a, b) => a - b);
      const written = since(writtenAt);
      const emitted = since(emittedAt);
      const pick = (list: number[], p: number): number => list[Math.min(list.length - 1, Math.floor((p / 100) * list.length))]!;
      const pct = (p: number): number => pick(written, p);
      console.log(
        `  block latency ${f.params.id} (${f.how}), ${fromNotification['samples']} deliveries of ${fromNotification['blocks']} blocks: ` +
          `notification->delivery p50 ${ms(fromNotification['p50'])} p99 ${ms(fromNotification['p99'])} max ${ms(fromNotification['max'])}; ` +
          `generatetoaddress returned->delivery p50 ${ms(fromMining['p50'])} p99 ${ms(fromMining['p99'])}; ` +
          `notification->block indexed and event published p50 ${ms(pick(emitted, 50))} max ${ms(pick(emitted, 100))}; ` +
          `notification->written to all ${CONNECTIONS} sockets (server side) p50 ${ms(pct(50))} max ${ms(pct(100))}`,
      );
    }

    // Fan-out: tx_accepted events to blockchain_update_ltctest, which every connection holds. Rounds alternate events
    // without and with an event_id (issue 32: the event log numbers every event, so the router adds `event_id` to each
    // payload), so the two are compared in one run under the same load.
    const tx = sampleTx();
    const expected = EVENTS * CONNECTIONS;
    const rates: Record<string, number[]> = { 'without event_id': [], 'with event_id': [] };
    for (const round of ['without event_id', 'with event_id', 'without event_id', 'with event_id']) {
      load.send({ cmd: 'expect', count: expected });
      await load.next('armed');
      const before = realtime.stats();
      const t0 = nowMs();
      for (let i = 0; i < EVENTS; i++) {
        const eventId = round === 'with event_id' ? { eventId: 1_000_000 + i } : {};
        bus.publish({ kind: 'tx_accepted', network: 'LTCTEST', tx, seenAt: Math.floor(Date.now() / 1000), inputValue: null, deltas: [], mempoolSize: i, prevouts: null, ...eventId });
        // Let the sockets drain between events, as events arrive in practice.
        await new Promise((resolve) => setImmediate(resolve));
      }
      const serverSeconds = (nowMs() - t0) / 1000;
      const got = await load.next('received');
      const after = realtime.stats();
      const seconds = (Number(got['lastAt']) - t0) / 1000;
      const frameBytes = channelEventFrame('blockchain_update_ltctest', 'tx_update', txUpdatePayload({ kind: 'tx_accepted', network: 'LTCTEST', tx, seenAt: 0, inputValue: null, deltas: [], mempoolSize: 0, prevouts: null }, 0)).bytes.length;
      rates[round]!.push(Number(got['count']) / seconds);
      console.log(
        `  fan-out (${round}): ${got['count']}/${expected} tx_update frames (~${frameBytes} B) delivered in ${seconds.toFixed(2)} s = ` +
          `${Math.round(Number(got['count']) / seconds)} messages/s delivered; server wrote ${Math.round((after.messagesSent - before.messagesSent) / serverSeconds)} messages/s; ` +
          `dropped ${after.messagesDropped - before.messagesDropped}, slow consumers closed ${after.slowConsumersClosed - before.slowConsumersClosed}`,
      );
    }
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(`  fan-out with event_id / without: ${(mean(rates['with event_id']!) / mean(rates['without event_id']!)).toFixed(3)} (messages/s delivered, mean of 2 rounds each)`);
    console.log(
      `  machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${process.platform} ${process.arch}; ` +
        `load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    );
    await load.close();
    load = null;
    await realtime.close();
  } finally {
    await load?.close();
    for (const f of followed) {
      await f.notifier.stop();
      await f.indexer.stop();
    }
    await new Promise((resolve) => http.close(resolve));
    for (const node of nodes) await node.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
