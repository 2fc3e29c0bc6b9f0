/**
 * Operations on real processes: `outpoint serve` over a litecoind regtest node reached through a proxy the test
 * switches, so the node can hang (accept connections, never answer) or come back. /health, /ready, /ready/{NETWORK},
 * /metrics (on the API port, then on a port of its own), the Grafana dashboard's metrics, JSON log lines with request
 * ids, and no secret in any log line.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { freePort } from '../helpers/free-port.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { SwitchProxy } from '../helpers/switch-proxy.js';
import { sameAccountIn } from './v3-fixture.js';
import { dashboardMetricNames, exposedMetricNames } from './dashboard-metrics.js';

const ROOT = new URL('../..', import.meta.url).pathname;
let node: RegtestNode;
let proxy: SwitchProxy;
let dir: string;
let storePath: string;
let apiKey: string;
const running: Serve[] = [];
/** What each serve process wrote (kept after it stops). */
const processLogs: string[][] = [];

interface Serve {
  readonly child: ChildProcess;
  readonly port: number;
  readonly log: string[];
}

async function startServe(name: string, toml: string, args: string[] = [], env: Record<string, string> = {}): Promise<Serve> {
  const port = await freePort();
  const config = join(dir, `${name}.toml`);
  writeFileSync(config, toml);
  const log: string[] = [];
  // stderr is a pipe, not a terminal: log lines must be JSON.
  // bin/outpoint.js as users run it (the compiled build when it is current, else tsx).
  const child = spawn(process.execPath, ['bin/outpoint.js', 'serve', '--config', config, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, OUTPOINT_HTTP_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  processLogs.push(log);
  const serve = { child, port, log };
  running.push(serve);
  await waitFor(() => get(serve, '/health').then((r) => r.status === 200, () => false), 60_000, `${name} /health: ${log.join('').slice(-500)}`, 100);
  return serve;
}

async function stopServe(serve: Serve): Promise<void> {
  if (serve.child.exitCode === null) {
    const exited = once(serve.child, 'exit');
    serve.child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    assert.equal(code, 0, `serve exits cleanly on SIGTERM: ${serve.log.join('').slice(-500)}`);
  }
  running.splice(running.indexOf(serve), 1);
}

async function get(serve: Serve | number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string; ms: number }> {
  const port = typeof serve === 'number' ? serve : serve.port;
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, ms: performance.now() - started };
}

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;

function baseToml(rpcLines: string): string {
  return `data_dir = "${dir}"
[store]
url = "sqlite:${storePath}"
[http]
rate_limit_per_second = 0
[market]
sources = []
[log]
level = "debug"
[networks.LTCTEST]
chain = "regtest"
poll_ms = 200
${rpcLines}
`;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'outpoint-ops-'));
  storePath = join(dir, 'outpoint.db');
  node = await startLitecoind({ wallet: true });
  await node.mine(12);
  proxy = await SwitchProxy.start(node.rpcPort);
  const store = new SqliteStore({ path: storePath });
  await store.migrate();
  ({ key: apiKey } = await sameAccountIn([store.accounts()], 'ops@example.com', 'tiny', 2));
  await store.close();
});

after(async () => {
  for (const serve of [...running]) serve.child.kill('SIGKILL');
  await proxy?.close();
  await node?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('operations: health, readiness, metrics and logs of outpoint serve', () => {
  let serve: Serve;
  const rpcUrl = () => new URL(node.rpcUrl);

  it('/health, /ready and /ready/LTCTEST answer 200 once the index has caught up; unknown networks 404', async () => {
    const url = rpcUrl();
    serve = await startServe('main', baseToml(`rpc_url = "http://${url.username}:${url.password}@127.0.0.1:${proxy.port}/"`));
    await waitFor(() => get(serve, '/ready/LTCTEST').then((r) => r.status === 200), 30_000, 'LTCTEST ready');
    const health = await get(serve, '/health');
    assert.equal(json(health.text)['status'], 'ok');
    const network = json((await get(serve, '/ready/ltctest')).text);
    assert.deepEqual(
      { ...network, node_answered_at: typeof network['node_answered_at'] },
      {
        network: 'LTCTEST', ready: true, reason: null, message: null, index_height: 12, node_height: 12, lag_blocks: 0, max_lag_blocks: 3,
        sync_phase: 'ready', sync_eta_seconds: 0, node_error: null, node_answered_at: 'number',
        // The network's Electrum listeners (docs/electrum.md): none configured here.
        electrum: {},
      },
    );
    const all = await get(serve, '/ready');
    assert.equal(all.status, 200);
    assert.deepEqual(json(all.text)['store'], { reachable: true, error: null, replicas: [] });
    assert.equal((json(all.text)['networks'] as Record<string, { ready: boolean }>)['LTCTEST']!.ready, true);
    const unknown = await get(serve, '/ready/BTC');
    assert.equal(unknown.status, 404);
    assert.equal(json(unknown.text)['reason'], 'unknown_network');
  });

  it('/metrics: per-network, HTTP, quota, realtime, store-write and process figures; the dashboard queries only these', async () => {
    // Requests to count: v2, v3 within and over the plan's quota of 2, and a request id to find in the log.
    assert.equal((await get(serve, '/api/v2/get_info/LTCTEST', { 'x-request-id': 'ops-test-42' })).headers.get('x-request-id'), 'ops-test-42');
    for (let i = 0; i < 3; i++) await get(serve, '/api/v3/network_info/LTCTEST', { 'api-key': apiKey });
    const text = (await get(serve, '/metrics')).text;
    for (const line of [
      'outpoint_index_height{network="LTCTEST"} 12',
      'outpoint_node_height{network="LTCTEST"} 12',
      'outpoint_index_lag_blocks{network="LTCTEST"} 0',
      'outpoint_network_ready{network="LTCTEST"} 1',
      'outpoint_sync_phase{network="LTCTEST",phase="ready"} 1',
      'outpoint_mempool_transactions{network="LTCTEST"} 0',
      'outpoint_quota_rejections_total{api="v3",limit="daily_quota"} 1',
      'outpoint_http_requests_total{api="v2",method="GET",route="/api/v2/get_info/:network",status="200"} 1',
      'outpoint_http_requests_total{api="v3",method="GET",route="/api/v3/network_info/:network",status="429"} 1',
      'outpoint_realtime_connections 0',
      'outpoint_realtime_subscriptions{channel_type="address"} 0',
      'outpoint_indexer_blocks_connected_total{network="LTCTEST"} 13',
      'outpoint_store_up 1',
    ]) {
      assert.ok(text.includes(`\n${line}\n`), `${line} in /metrics:\n${text.slice(0, 3000)}`);
    }
    assert.match(text, /\noutpoint_http_request_duration_seconds_bucket\{le="\+Inf",api="v2",method="GET",route="\/api\/v2\/get_info\/:network"\} 1\n/);
    // An empty index is loaded as an initial sync: its blocks went through loadBlocks (on the SQLite worker thread).
    assert.match(text, /\noutpoint_store_write_seconds_count\{network="LTCTEST",operation="loadBlocks"\} [1-9]/);
    assert.match(text, /\noutpoint_sync_eta_seconds\{network="LTCTEST"\} 0\n/);
    assert.match(text, /\nprocess_resident_memory_bytes \d+/);
    assert.match(text, /\nnodejs_eventloop_lag_p99_seconds [\d.e-]+\n/);
    const exposed = exposedMetricNames(text);
    const missing = dashboardMetricNames().filter((name) => !exposed.has(name));
    assert.deepEqual(missing, [], 'every metric docs/grafana-dashboard.json queries is exposed');
  });

  it('a hung node (accepts, never answers) makes /ready/LTCTEST 503 within 30 s while every probe answers at once', async () => {
    proxy.set('hang');
    const hungAt = Date.now();
    let last = await get(serve, '/ready/LTCTEST');
    while (last.status === 200) {
      assert.ok(Date.now() - hungAt < 30_000, 'noticed within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
      last = await get(serve, '/ready/LTCTEST');
    }
    const body = json(last.text);
    assert.equal(last.status, 503);
    assert.equal(body['reason'], 'node_unreachable');
    assert.match(String(body['message']), /^node not answering \(timeout\)/);
    assert.equal(body['node_error'], 'timeout');
    const all = await get(serve, '/ready');
    assert.equal(all.status, 503);
    assert.equal(json(all.text)['reason'], 'no_network_ready');
    // Probes and index reads do not wait on the hung node.
    for (const path of ['/health', '/ready', '/ready/LTCTEST', '/metrics', '/api/v2/get_block/LTCTEST/5']) {
      const answer = await get(serve, path);
      assert.ok(answer.ms < 2_000, `${path} answered in ${Math.round(answer.ms)} ms`);
      if (path.startsWith('/api')) assert.equal(answer.status, 200, 'the index still answers');
    }
    assert.match((await get(serve, '/metrics')).text, /\noutpoint_node_up\{network="LTCTEST"\} 0\n/);
    proxy.set('forward');
    await waitFor(() => get(serve, '/ready/LTCTEST').then((r) => r.status === 200), 30_000, 'ready again after the node answers');
  });

  it('an API-only replica whose index lags: 503 index_lagging; [metrics] port moves /metrics off the API port', async () => {
    await stopServe(serve);
    await node.mine(5);
    const metricsPort = await freePort();
    const cookie = `rpc_url = "http://127.0.0.1:${proxy.port}/"\nrpc_cookie = "${node.cookieFile}"`;
    const replica = await startServe('replica', `${baseToml(cookie)}[metrics]\nport = ${metricsPort}\n[health]\nmax_lag_blocks = 4\n`, ['--api-only']);
    let seen = '';
    await waitFor(
      () => get(replica, '/ready/LTCTEST').then((r) => ((seen = r.text), r.status === 503 && json(r.text)['reason'] === 'index_lagging')),
      30_000,
      'lagging',
    ).catch((err: Error) => assert.fail(`${err.message}; last answer ${seen}; log ${replica.log.join('').slice(-800)}`));
    const body = json((await get(replica, '/ready/LTCTEST')).text);
    assert.equal(body['lag_blocks'], 5);
    assert.equal(body['max_lag_blocks'], 4);
    assert.match(String(body['message']), /index at height 12 is 5 blocks behind the node's 17 \(at most 4 allowed\)/);
    assert.equal((await get(replica, '/metrics')).status, 404, 'not on the API port');
    const metrics = await get(metricsPort, '/metrics');
    assert.equal(metrics.status, 200);
    assert.match(metrics.text, /\noutpoint_index_lag_blocks\{network="LTCTEST"\} 5\n/);
    assert.equal((await get(metricsPort, '/health')).status, 200);
    await stopServe(replica);
  });

  it('an initial sync (--bulk): /ready/LTCTEST 503 initial_sync with phase and ETA, phase and load figures in /metrics, ready after', async () => {
    const url = rpcUrl();
    // Each build step waits 1.5 s (a testing aid of the indexer), so the building-indexes phase lasts long enough to see.
    const bulk = await startServe(
      'bulk',
      `${baseToml(`rpc_url = "http://${url.username}:${url.password}@127.0.0.1:${proxy.port}/"`)}[health]\ncheck_interval_ms = 250\n`,
      ['--bulk'],
      { OUTPOINT_TEST_BUILD_STEP_DELAY_MS: '1500' },
    );
    let seen = '';
    await waitFor(
      () => get(bulk, '/ready/LTCTEST').then((r) => ((seen = r.text), r.status === 503 && json(r.text)['sync_phase'] === 'building-indexes')),
      30_000,
      'building-indexes',
      100,
    ).catch((err: Error) => assert.fail(`${err.message}; last answer ${seen}; log ${bulk.log.join('').slice(-800)}`));
    const body = json(seen);
    assert.equal(body['reason'], 'initial_sync');
    assert.match(String(body['message']), /^initial sync: building-indexes at height 17 of 17, about \d+ s left$/);
    assert.equal(typeof body['sync_eta_seconds'], 'number');
    assert.deepEqual([body['index_height'], body['node_height'], body['lag_blocks']], [17, 17, 0], 'every block loaded, indexes being built');
    const all = await get(bulk, '/ready');
    assert.equal(all.status, 503, 'the only network is syncing');
    assert.equal((json(all.text)['networks'] as Record<string, { reason: string }>)['LTCTEST']!.reason, 'initial_sync');
    const during = (await get(bulk, '/metrics')).text;
    assert.match(during, /\noutpoint_sync_phase\{network="LTCTEST",phase="building-indexes"\} 1\n/);
    assert.match(during, /\noutpoint_sync_phase\{network="LTCTEST",phase="ready"\} 0\n/);
    assert.match(during, /\noutpoint_network_ready\{network="LTCTEST"\} 0\n/);
    assert.match(during, /\noutpoint_sync_eta_seconds\{network="LTCTEST"\} [\d.e+-]+\n/);
    // The initial load wrote 18 blocks (genesis to 17) in batches on the SQLite worker thread, timed and counted.
    assert.match(during, /\noutpoint_store_write_seconds_count\{network="LTCTEST",operation="loadBlocks"\} [1-9]/);
    assert.match(during, /\noutpoint_indexer_blocks_connected_total\{network="LTCTEST"\} 18\n/);
    await waitFor(() => get(bulk, '/ready/LTCTEST').then((r) => r.status === 200), 60_000, 'ready after the build', 250);
    const after = (await get(bulk, '/metrics')).text;
    assert.match(after, /\noutpoint_sync_phase\{network="LTCTEST",phase="ready"\} 1\n/);
    assert.match(after, /\noutpoint_store_write_seconds_count\{network="LTCTEST",operation="buildStep"\} ([5-9]|\d\d)\n/);
    assert.match(after, /\noutpoint_index_height\{network="LTCTEST"\} 17\n/);
    await stopServe(bulk);
  });

  it('logs: one JSON object per line with time, level and message; request ids on HTTP lines; no secret anywhere', () => {
    const lines = processLogs.flatMap((log) => log.join('').split('\n')).filter((l) => l !== '');
    assert.ok(lines.length > 10);
    for (const line of lines) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      assert.equal(typeof parsed['time'], 'string', line);
      assert.ok(['debug', 'info', 'warn', 'error'].includes(String(parsed['level'])), line);
      assert.equal(typeof parsed['message'], 'string', line);
    }
    const http = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['message'] === 'http request');
    assert.ok(http.some((l) => l['reqId'] === 'ops-test-42' && l['path'] === '/api/v2/get_info/LTCTEST' && l['status'] === 200));
    assert.ok(http.every((l) => typeof l['reqId'] === 'string' && String(l['reqId']).length > 0));
    assert.ok(lines.some((l) => l.includes('"health: network not ready"') && l.includes('node_unreachable')), 'the hang was logged');
    const log = processLogs.map((l) => l.join('')).join('\n');
    const password = decodeURIComponent(new URL(node.rpcUrl).password);
    const cookieSecret = readFileSync(node.cookieFile, 'utf8').trim().split(':')[1]!;
    for (const [what, secret] of [['RPC password', password], ['cookie contents', cookieSecret], ['API key', apiKey.slice(12)]] as const) {
      assert.ok(secret.length >= 16, what);
      assert.ok(!log.includes(secret), `${what} in the log`);
    }
  });
});
