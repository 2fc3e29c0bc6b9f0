/**
 * Load generator for bench/realtime.bench.ts, run in its own process (its own CPU and file
 * descriptors): opens N websockets speaking the Pusher protocol, subscribes each to its channels,
 * then counts deliveries and records when block_update frames arrive (when their bytes reach the process).
 *
 * argv[2]: JSON {port, key, channels: string[][]} (connection i subscribes to channels[i % length]).
 * Reports JSON lines on stdout; takes JSON-line commands on stdin:
 *   {"cmd":"expect","count":n}          report {"event":"received"} once n more frames arrived
 *   {"cmd":"latency","from":{hash: ms}} report receipt-time percentiles of block_update per hash
 *   {"cmd":"close"}                      close everything and exit
 */
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';

interface Config {
  readonly port: number;
  readonly key: string;
  readonly connections: number;
  readonly channels: readonly (readonly string[])[];
}

const config = JSON.parse(process.argv[2] ?? '{}') as Config;
const url = `ws://127.0.0.1:${config.port}/app/${config.key}?protocol=7&client=bench&version=1`;
const BLOCK_MARK = Buffer.from('"block_update"');
const PING_MARK = Buffer.from('"pusher:ping"');
// Inside the double-encoded data string: \"blockhash\":\"<64 hex>
const HASH_MARK = Buffer.from('blockhash\\":\\"');
const nowMs = (): number => performance.timeOrigin + performance.now();
const report = (line: unknown): void => void process.stdout.write(`${JSON.stringify(line)}\n`);

const sockets: WebSocket[] = [];
const blockReceipts = new Map<string, number[]>();
let received = 0;
let firstAt = 0;
let lastAt = 0;
let closedEarly = 0;
let expecting: { target: number; resolve: () => void } | null = null;

/**
 * Once subscribed, a connection's frames are read straight from its TCP socket (ws's own reader is detached):
 * this one process reads what 10,000 separate clients would, so its cost per frame must stay below the
 * server's or the figure measures the load generator. A frame's time is when its bytes reached the process.
 */
class FrameReader {
  private rest: Buffer | null = null;

  constructor(private readonly onText: (payload: Buffer, arrived: number) => void) {}

  push(chunk: Buffer): void {
    const arrived = nowMs();
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    let at = 0;
    // Server frames are unmasked (RFC 6455 5.1): opcode byte, 7-bit length, 16- or 64-bit extended lengths.
    while (buf.length - at >= 2) {
      let length = buf[at + 1]! & 0x7f;
      let header = 2;
      if (length === 126) {
        if (buf.length - at < 4) break;
        length = buf.readUInt16BE(at + 2);
        header = 4;
      } else if (length === 127) {
        if (buf.length - at < 10) break;
        length = Number(buf.readBigUInt64BE(at + 2));
        header = 10;
      }
      if (buf.length - at < header + length) break;
      if ((buf[at]! & 0x0f) === 0x1) this.onText(buf.subarray(at + header, at + header + length), arrived);
      at += header + length;
    }
    this.rest = at < buf.length ? buf.subarray(at) : null;
  }
}

function onFrame(ws: WebSocket, data: Buffer, t: number): void {
  received++;
  if (received === 1) firstAt = t;
  lastAt = t;
  if (data.includes(PING_MARK)) {
    ws.send('{"event":"pusher:pong","data":{}}');
  } else if (data.includes(BLOCK_MARK)) {
    // The hash is read straight from the bytes: two JSON.parse calls per frame would make this one process,
    // reading all 10,000 deliveries, the bottleneck being measured.
    const at = data.indexOf(HASH_MARK) + HASH_MARK.length;
    const hash = data.toString('latin1', at, at + 64);
    let list = blockReceipts.get(hash);
    if (!list) blockReceipts.set(hash, (list = []));
    list.push(t);
  }
  if (expecting && received >= expecting.target) {
    expecting.resolve();
    expecting = null;
  }
}

function open(index: number): Promise<void> {
  const channels = config.channels[index % config.channels.length]!;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    sockets.push(ws);
    let pending = channels.length;
    ws.on('error', reject);
    ws.on('close', () => closedEarly++);
    const handshake = (data: Buffer): void => {
      const frame = JSON.parse(data.toString()) as { event: string };
      if (frame.event === 'pusher:connection_established') {
        for (const channel of channels) ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel } }));
      } else if (frame.event === 'pusher_internal:subscription_succeeded' && --pending === 0) {
        ws.off('message', handshake);
        const socket = (ws as unknown as { _socket: NodeJS.EventEmitter })._socket;
        const reader = new FrameReader((payload, arrived) => onFrame(ws, payload, arrived));
        socket.removeAllListeners('data');
        socket.on('data', (chunk: Buffer) => reader.push(chunk));
        resolve();
      } else if (frame.event === 'pusher:error') {
        reject(new Error(data.toString()));
      } else if (frame.event === 'pusher:ping') {
        ws.send('{"event":"pusher:pong","data":{}}');
      }
    };
    ws.on('message', handshake);
  });
}

async function connectAll(): Promise<void> {
  const concurrency = 256;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < config.connections) await open(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const started = nowMs();
await connectAll();
const seconds = (nowMs() - started) / 1000;
report({ event: 'ready', connections: sockets.length, seconds, perSecond: sockets.length / seconds, rssBytes: process.memoryUsage().rss });

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as { cmd: string; count?: number; from?: Record<string, number> };
  if (command.cmd === 'expect') {
    received = 0;
    const done = new Promise<void>((resolve) => (expecting = { target: command.count!, resolve }));
    report({ event: 'armed' });
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, 120_000).unref());
    await Promise.race([done, timeout]);
    report({ event: 'received', count: received, firstAt, lastAt, closedEarly });
  } else if (command.cmd === 'latency') {
    const latencies: number[] = [];
    for (const [hash, from] of Object.entries(command.from!)) for (const t of blockReceipts.get(hash) ?? []) latencies.push(t - from);
    latencies.sort((a, b) => a - b);
    report({
      event: 'latency',
      samples: latencies.length,
      blocks: Object.keys(command.from!).length,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies[latencies.length - 1] ?? NaN,
    });
  } else if (command.cmd === 'close') {
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
}
