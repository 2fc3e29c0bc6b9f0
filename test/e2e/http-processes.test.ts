/**
 * `[http] processes = 2` (docs/operations.md, "HTTP on several cores"), one `outpoint serve` per store engine: two
 * worker processes answer the port, and a client cannot tell them from one process. Requests land on both workers;
 * a pusher-js client gets the tx_update of a tx sent to the node (the serving process's bus crosses to the workers);
 * the per-IP rate limit, a v3 key's daily quota and realtime's connections per address hold exactly across
 * connections, whichever worker each lands on, and v3's 401s per client network within one request; a worker killed with SIGKILL is replaced while the others answer;
 * a stop leaves no worker behind, and so does a SIGKILL of the serving process. Two Electrum workers run beside them.
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { blockchainChannel } from '../../src/services/events/catalogue/event-channels.js';
import { connected, pusherClient, RawClient, Recorder, subscribed, type Pusher } from '../helpers/pusher-clients.js';
import { freePort } from '../helpers/free-port.js';
import { startBitcoind, type RegtestNode } from '../helpers/regtest-node.js';
import { startServeWithBody, type ServeProcess } from '../helpers/serve-process.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';
import { waitFor } from '../helpers/wait-for.js';
import { sameAccountIn } from './v3-fixture.js';

const RATE = 20;
const QUOTA = 6;
const REALTIME_PER_IP = 3;
const KEY_FAILURES = 4;
let btc: RegtestNode;
const engines = new StoreEngines();
const servers: { engine: string; serve: ServeProcess; key: string }[] = [];

before(async () => {
  btc = await startBitcoind({ funded: true });
  for (const engine of testEngines()) {
    const store = await engines.create(engine);
    await store.store.migrate();
    const { key } = await sameAccountIn([store.store.accounts()], 'workers@example.com', 'workers', QUOTA);
    // Two Electrum workers beside the two HTTP ones: both clusters fork from the one serving process (a replaced HTTP
    // worker must be an HTTP worker again), and the HTTP workers' /ready lists the Electrum listener.
    const body = `[store]\nurl = "${store.url}"\n[accounts]\nkey_failures_per_ip = ${KEY_FAILURES}\n[electrum]\nprocesses = 2\n[realtime]\nmax_connections_per_ip = ${REALTIME_PER_IP}\n[networks.BTCTEST]\nchain = "regtest"\n`
      + `rpc_url = "${btc.rpcUrl}"\n${btc.zmqUrl ? `zmq_url = "${btc.zmqUrl}"` : 'poll_ms = 100'}\np2p_target_peers = 0\nmempool_sample_seconds = 0\nelectrum_tcp = "127.0.0.1:${await freePort()}"\n`;
    // The readiness probe is a v2 request: it counts against the rate limit, which the test waits out below.
    // A worker silent for 6 s (its metrics come every second) counts as stuck here (30 s in production).
    const serve = await startServeWithBody(body, {
      readyNetwork: 'BTCTEST', readyPath: '/health', http: { processes: '2', rate_limit_per_second: String(RATE) }, env: { OUTPOINT_TEST_HTTP_WORKER_STUCK_MS: '6000' },
    });
    servers.push({ engine, serve, key });
  }
});

after(async () => {
  for (const { serve } of servers) await serve.stop();
  await btc?.stop();
  await engines.close();
});

/** A GET on `agent`'s connection: its status. */
function get(port: number, path: string, agent: Agent, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    }).on('error', reject).end();
  });
}

/** A GET on `agent`'s connection: its status and JSON body. */
function getJson(port: number, path: string, agent: Agent): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    }).on('error', reject).end();
  });
}

/** Keep-alive connections, one socket each. */
function connections(n: number): Agent[] {
  return Array.from({ length: n }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
}

/** /metrics on a new connection (whichever worker it is dealt to; none kept alive to a worker that may be gone). */
function metrics(serve: ServeProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: serve.port, path: '/metrics', agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve(text));
    }).on('error', reject).end();
  });
}

/** The worker pids /metrics lists as running, and the requests each was handed. */
async function workers(serve: ServeProcess): Promise<{ up: number[]; requests: Map<number, number> }> {
  const text = await metrics(serve);
  const pids = (name: string): [number, number][] =>
    [...text.matchAll(new RegExp(`^${name}\\{pid="(\\d+)"\\} (\\S+)$`, 'gm'))].map((m) => [Number(m[1]), Number(m[2])]);
  return { up: pids('outpoint_http_worker_up').map(([pid]) => pid), requests: new Map(pids('outpoint_http_worker_requests_total')) };
}

/**
 * A POST whose body is still arriving when the service is told to stop: the workers stop listening (new connections
 * are refused), and the request is answered once its body is complete.
 */
async function inFlightAnsweredThroughStop(serve: ServeProcess, engine: string): Promise<void> {
  const handed = async (): Promise<number> => [...(await workers(serve)).requests.values()].reduce((a, b) => a + b, 0);
  // Settled: over more than a relay period (1 s) the count moved by the looking request alone.
  let before = await handed();
  await waitFor(async () => {
    const now = await handed();
    const settled = now === before + 1;
    before = now;
    return settled;
  }, 20_000, `${engine}: the relayed request counts settled`, 1100);
  const body = JSON.stringify({ tx_hex: '00' });
  const req = request({
    host: '127.0.0.1', port: serve.port, path: '/api/v2/send_tx/BTCTEST', method: 'POST', agent: false,
    headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
  });
  const answered = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode!);
    }).on('error', reject);
  });
  req.flushHeaders();
  // A worker has the request once its count moved past the /metrics requests that looked (each counts itself).
  let looks = 1;
  await waitFor(async () => (await handed()) >= before + ++looks, 10_000, `${engine}: the POST handed to a worker`);
  const exited = new Promise<number | null>((resolve) => serve.child.once('exit', (code) => resolve(code)));
  serve.child.kill('SIGTERM');
  // Refused once every worker closed its listener. A probe answered (503 while closing) or left waiting (accepted in
  // the moment the listeners closed) is not that yet: it is dropped after a second and another one is sent. (The
  // POST must get its body before the serving process gives up on its worker: 15 s after the stop.)
  await waitFor(() => new Promise<boolean>((resolve) => {
    const probe = request({ host: '127.0.0.1', port: serve.port, path: '/health', agent: false, timeout: 1000 }, (res) => {
      res.resume();
      resolve(false);
    });
    probe.on('timeout', () => {
      probe.destroy();
      resolve(false);
    }).on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED')).end();
  }), 10_000, `${engine}: the workers no longer listening`);
  req.end(body);
  const status = await answered.catch((error: Error) => {
    throw new Error(`${engine}: the request in flight failed (${error.message}); serve's log: ${serve.log.join('').slice(-3000)}`);
  });
  assert.ok(status >= 200 && status < 500, `${engine}: the request in flight answered (${status})`);
  assert.equal(await exited, 0, `${engine}: a clean exit`);
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('[http] processes = 2: worker processes serve the port like one process', () => {
  it('answers from both workers, each a child of the serving process, shown in its /metrics', async () => {
    for (const { engine, serve } of servers) {
      let up: number[] = [];
      await waitFor(async () => (up = (await workers(serve)).up).length === 2, 20_000, `${engine}: two workers in /metrics`);
      assert.ok(!up.includes(serve.child.pid!), 'the workers are other processes');
      // New connections are dealt out in turn: a few of them reach both workers.
      const agents = connections(6);
      for (const agent of agents) assert.equal(await get(serve.port, '/health', agent), 200);
      for (const agent of agents) agent.destroy();
      await waitFor(async () => {
        const { requests } = await workers(serve);
        return up.every((pid) => (requests.get(pid) ?? 0) > 0);
      }, 10_000, `${engine}: requests on both workers`);
      // The HTTP figures of the workers are the serving process's /metrics.
      assert.match(await metrics(serve), /^outpoint_http_requests_total\{.*route="\/health".*\} \d+$/m);
      // Each worker checks readiness itself, as an API-only process does, and lists the Electrum listener the serving
      // process's Electrum workers bound: /ready/BTCTEST on two new connections.
      await waitFor(async () => {
        const ready = await Promise.all(connections(2).map(async (agent) => {
          const answer = await getJson(serve.port, '/ready/BTCTEST', agent);
          agent.destroy();
          return answer;
        }));
        return ready.every((r) => r.status === 200 && /^127\.0\.0\.1:\d+$/.test((r.body as { electrum?: { tcp?: string } }).electrum?.tcp ?? ''));
      }, 20_000, `${engine}: /ready/BTCTEST with the Electrum listener on both workers`);
    }
  });

  it('a pusher-js client on a worker gets the tx_update of a tx sent to the node', async () => {
    const clients: Pusher[] = [];
    try {
      const recorders: Recorder<{ value?: { txid?: string } }>[] = [];
      for (const { serve } of servers) {
        // Two clients: the cluster deals them to different workers.
        for (let i = 0; i < 2; i++) {
          const pusher = pusherClient(serve.port, 'outpoint');
          clients.push(pusher);
          await connected(pusher);
          recorders.push(new Recorder(await subscribed(pusher, blockchainChannel('BTCTEST')), 'tx_update'));
        }
      }
      const txid = await btc.send(await btc.newAddress('bech32'), '0.1');
      for (const recorder of recorders) await recorder.next((e) => e.value?.txid === txid, 20_000);
    } finally {
      for (const pusher of clients) pusher.disconnect();
    }
  });

  it('counts realtime connections per address across workers: the one past the limit is refused with 4100', async () => {
    for (const { engine, serve } of servers) {
      // The previous test's clients are gone once their slots are back (the relayed figure lags a second).
      await waitFor(async () => /^outpoint_realtime_connections 0$/m.test(await metrics(serve)), 20_000, `${engine}: no realtime connections`);
      const open: RawClient[] = [];
      try {
        for (let i = 0; i < REALTIME_PER_IP; i++) {
          const client = RawClient.connect(serve.port, '/app/outpoint?protocol=7');
          open.push(client);
          await client.next((f) => f.event === 'pusher:connection_established');
        }
        const over = RawClient.connect(serve.port, '/app/outpoint?protocol=7');
        open.push(over);
        assert.equal(await over.errorCode(), 4100, `${engine}: connection ${REALTIME_PER_IP + 1} from one address`);
      } finally {
        for (const client of open) client.close();
      }
    }
  });

  it('holds the per-IP rate limit exactly across connections: request RATE+1 of a second is 429 on every worker', async () => {
    for (const { engine, serve } of servers) {
      const agents = connections(4);
      try {
        const v2 = '/api/v2/get_info/BTCTEST';
        // A round must fit in one window of a second (a slow machine's round is tried again in the next one).
        await waitFor(async () => {
          // The current window filled up, the first request answered after it opens the next one (its count is 1).
          while ((await get(serve.port, v2, agents[0]!)) === 200);
          let started = 0;
          await waitFor(async () => {
            started = Date.now();
            return (await get(serve.port, v2, agents[0]!)) === 200;
          }, 5_000, `${engine}: the next rate window`, 20);
          const within = await Promise.all(Array.from({ length: RATE - 1 }, (_, i) => get(serve.port, v2, agents[i % agents.length]!)));
          const over = await Promise.all(agents.map((agent) => get(serve.port, v2, agent)));
          if (Date.now() - started > 700) return false;
          assert.deepEqual(within.filter((status) => status !== 200), [], `${engine}: the first ${RATE} requests of the window`);
          assert.deepEqual(over, agents.map(() => 429), `${engine}: past the limit, on every connection`);
          return true;
        }, 30_000, `${engine}: a round within one rate window`, 1);
      } finally {
        for (const agent of agents) agent.destroy();
      }
    }
  });

  it("holds a v3 key's daily quota exactly across connections and workers", async () => {
    for (const { engine, serve, key } of servers) {
      const agents = connections(4);
      try {
        const path = '/api/v3/network_info/BTCTEST';
        const within = await Promise.all(Array.from({ length: QUOTA }, (_, i) => get(serve.port, path, agents[i % agents.length]!, { 'api-key': key })));
        assert.deepEqual(within, Array.from({ length: QUOTA }, () => 200), `${engine}: within the quota`);
        const over = await Promise.all(agents.map((agent) => get(serve.port, path, agent, { 'api-key': key })));
        assert.deepEqual(over, agents.map(() => 429), `${engine}: past the quota, on every connection`);
      } finally {
        for (const agent of agents) agent.destroy();
      }
    }
  });

  it("counts v3 401s per client network across workers: past the limit 429 on every connection, one request of lag at most", async () => {
    for (const { engine, serve } of servers) {
      const agents = connections(4);
      const path = '/api/v3/network_info/BTCTEST';
      try {
        // One after another, on connections dealt to both workers: a 401 goes out once the serving process has passed
        // it on to the other worker, which may still read the next request in the same turn as that message, so the
        // request right after the limit may pass there (docs/operations.md).
        let unauthorized = 0;
        for (let i = 0; ; i++) {
          const status = await get(serve.port, path, agents[i % agents.length]!, { 'api-key': 'not-a-key' });
          if (status === 429) break;
          assert.equal(status, 401);
          unauthorized++;
          assert.ok(unauthorized <= KEY_FAILURES + 1, `${engine}: ${unauthorized} 401s, the limit is ${KEY_FAILURES}`);
        }
        assert.ok(unauthorized >= KEY_FAILURES, `${engine}: ${unauthorized} 401s before the limit of ${KEY_FAILURES}`);
        await waitFor(async () => (await Promise.all(agents.map((agent) => get(serve.port, path, agent, { 'api-key': 'not-a-key' })))).every((s) => s === 429),
          10_000, `${engine}: 429 on every connection`);
      } finally {
        for (const agent of agents) agent.destroy();
      }
    }
  });

  it('replaces a worker killed with SIGKILL; the other answers meanwhile', async () => {
    const { engine, serve } = servers[0]!;
    const { up } = await workers(serve);
    process.kill(up[0]!, 'SIGKILL');
    await waitFor(() => !alive(up[0]!), 10_000, 'the killed worker gone');
    const agents = connections(4);
    for (const agent of agents) assert.equal(await get(serve.port, '/health', agent), 200, `${engine}: answered with one worker down`);
    for (const agent of agents) agent.destroy();
    // The new worker is an HTTP worker (the Electrum workers' cluster settings did not leak into its fork).
    await waitFor(async () => {
      const now = (await workers(serve)).up;
      return now.length === 2 && !now.includes(up[0]!);
    }, 20_000, `${engine}: a new worker`);
    assert.equal(serve.child.exitCode, null, 'the serving process runs on');
  });

  it('replaces a stuck worker (SIGSTOP: it says nothing any more)', async () => {
    const { engine, serve } = servers[1] ?? servers[0]!;
    const { up } = await workers(serve);
    process.kill(up[0]!, 'SIGSTOP');
    try {
      await waitFor(() => !alive(up[0]!), 20_000, `${engine}: the stuck worker ended`);
    } finally {
      if (alive(up[0]!)) process.kill(up[0]!, 'SIGCONT');
    }
    // A connection dealt to the stopped worker meanwhile is reset when it ends: that look is retried.
    await waitFor(async () => {
      const now = (await workers(serve).catch(() => ({ up: [] as number[] }))).up;
      return now.length === 2 && !now.includes(up[0]!);
    }, 20_000, `${engine}: a new worker`);
    assert.match(serve.log.join(''), /an HTTP worker process has said nothing for too long; ending it/);
  });

  it('leaves no worker behind: on a stop (a request in flight still answered), and on a SIGKILL of the serving process', async () => {
    for (const [i, { engine, serve }] of servers.entries()) {
      const { up } = await workers(serve);
      assert.equal(up.length, 2);
      if (i === 0) {
        await inFlightAnsweredThroughStop(serve, engine);
        await serve.stop();
      } else {
        const exited = new Promise((resolve) => serve.child.once('exit', resolve));
        serve.child.kill('SIGKILL');
        await exited;
      }
      await waitFor(() => up.every((pid) => !alive(pid)), 15_000, `${engine}: the workers gone`);
    }
  });
});
