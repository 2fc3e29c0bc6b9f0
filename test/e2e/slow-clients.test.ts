/**
 * Issue 27, point 3, on the real process: slow and idle clients. `[http] request_timeout_s` answers a request whose
 * body (or headers) has not arrived with 408 and closes it; an idle keep-alive connection is closed after
 * `keep_alive_timeout_s`; a connection that says nothing is closed too; websockets are not requests and stay;
 * `max_connections` closes connections over the cap as they arrive; `[realtime] max_connections_per_ip` refuses
 * further websockets from one address with 4100 and counts a closed one out.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { RawClient } from '../helpers/pusher-clients.js';
import { completeResponse, rawExchange, statusOf } from '../helpers/raw-http.js';
import { startServeWithBody, type ServeProcess } from '../helpers/serve-process.js';
import { waitFor } from '../helpers/wait-for.js';

const BODY = '[market]\nsources = []\n[realtime]\nmax_connections_per_ip = 3';
let timed: ServeProcess;
let capped: ServeProcess;
const sockets: net.Socket[] = [];

before(async () => {
  [timed, capped] = await Promise.all([
    startServeWithBody(BODY, { readyPath: '/health', http: { request_timeout_s: '2', keep_alive_timeout_s: '1' } }),
    startServeWithBody(BODY, { readyPath: '/health', http: { max_connections: '20' } }),
  ]);
});

after(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all([timed?.stop(), capped?.stop()]);
});

async function open(port: number): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  sockets.push(socket);
  await within(5_000, once(socket, 'connect'), 'connected');
  // A server closing at accept resets the connection: that is an answer here, not a test failure.
  socket.on('error', () => undefined);
  // Reading, so that the server's close is seen (a paused socket never reads the FIN).
  socket.resume();
  return socket;
}

/** Resolves when the socket has closed, however (a reset included), or fails after `ms`. */
function closedWithin(socket: net.Socket, ms: number): Promise<void> {
  return within(ms, socket.destroyed ? Promise.resolve() : new Promise<void>((resolve) => socket.once('close', () => resolve())), 'socket closed');
}

function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(`not ${what} within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('[http] request_timeout_s and keep_alive_timeout_s', () => {
  it('a body that does not arrive in time: 408 and the connection closed', async () => {
    const answer = await rawExchange(timed.port, 'POST /api/v2/send_tx/LTC HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"tx_hex":"01', { timeoutMs: 15_000 });
    assert.equal(answer.status, 408, answer.text);
    assert.ok(answer.closed);
    assert.ok(answer.ms >= 1_900 && answer.ms < 6_000, `after about 2 s (checked every second), took ${answer.ms.toFixed(0)} ms`);
  });

  it('headers trickled a byte at a time: 408 at the headers timeout', async () => {
    const started = performance.now();
    const socket = await open(timed.port);
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const trickle = setInterval(() => socket.writable && socket.write('a'), 300);
    await closedWithin(socket, 15_000).finally(() => clearInterval(trickle));
    const ms = performance.now() - started;
    assert.equal(statusOf(text), 408, text);
    assert.ok(ms < 6_000, `closed after ${ms.toFixed(0)} ms`);
  });

  it('a connection that sends nothing is closed; an idle keep-alive connection after keep_alive_timeout_s', async () => {
    const silent = await open(timed.port);
    await closedWithin(silent, 6_000);

    const keptAlive = await rawExchange(timed.port, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n', { timeoutMs: 15_000 });
    assert.equal(keptAlive.status, 200);
    assert.ok(keptAlive.closed, 'the server closed the idle connection');
    // Node closes an idle keep-alive socket about a second after keepAliveTimeout.
    assert.ok(keptAlive.ms >= 900 && keptAlive.ms < 5_000, `closed after ${keptAlive.ms.toFixed(0)} ms`);
  });

  it('a websocket is no request: it outlives the request timeout and answers pings', async () => {
    const client = RawClient.connect(timed.port, '/app/outpoint?protocol=7');
    await client.next((f) => f.event === 'pusher:connection_established');
    await delay(4_000);
    assert.equal(client.ws.readyState, WebSocket.OPEN);
    client.send({ event: 'pusher:ping', data: {} });
    await client.next((f) => f.event === 'pusher:pong');
    client.close();
  });
});

describe('[http] max_connections and [realtime] max_connections_per_ip', () => {
  it('connections over the cap are closed as they arrive, with nothing read or written; the server answers once some go', async () => {
    // Request-less connections stay for the 10 s headers timeout: long enough to hold the server at its cap of 20.
    // This process may hold a keep-alive connection or two of its own (the readiness check): the cap counts them too.
    const opened: net.Socket[] = [];
    const answered = new Set<net.Socket>();
    for (let i = 0; i < 25; i++) {
      const socket = await open(capped.port);
      socket.on('data', () => answered.add(socket));
      opened.push(socket);
    }
    try {
      await waitFor(() => opened.filter((s) => s.destroyed).length >= 5, 2_000, 'the connections over the cap closed');
      const held = opened.filter((s) => !s.destroyed);
      assert.ok(held.length <= 20 && held.length >= 18, `${held.length} connections held at a cap of 20`);
      assert.equal(answered.size, 0, 'closed at accept: nothing written to them');
      for (const socket of held.slice(0, 5)) socket.destroy();
      const health = (): Promise<number | null> =>
        rawExchange(capped.port, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', { done: completeResponse, timeoutMs: 2_000 }).then((a) => a.status);
      await waitFor(async () => (await health()) === 200, 10_000, 'answers once under the cap');
    } finally {
      for (const socket of opened) socket.destroy();
    }
  });

  it('a fourth websocket from one address is refused with 4100; once one closes, a new one is let in', async () => {
    const connect = async (): Promise<RawClient> => {
      const client = RawClient.connect(capped.port, '/app/outpoint?protocol=7');
      await client.next((f) => f.event === 'pusher:connection_established' || f.event === 'pusher:error');
      return client;
    };
    const three = [await connect(), await connect(), await connect()];
    assert.ok(three.every((c) => c.frames.every((f) => f.event !== 'pusher:error')));
    const fourth = await connect();
    assert.equal(await fourth.errorCode(), 4100);
    assert.equal((await fourth.closed).code, 4100);
    three[0]!.ws.close();
    await three[0]!.closed;
    const again = await connect();
    assert.equal(again.frames[0]!.event, 'pusher:connection_established', 'the closed one was counted out');
    for (const client of [...three, again]) client.close();
  });
});
