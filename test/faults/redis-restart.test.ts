/**
 * Fault: Redis goes away for 3 s (killed, then a fresh empty server on the same port) under `outpoint serve` with
 * `[redis] url`. Nothing crashes; while it is down, realtime events reach pusher-js from the process itself, the v2
 * rate limit and the v3 quota count in the process; when it is back, all three go through Redis again, and the
 * requests counted during the outage are still in the account's usage (the store is their durable record).
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { freePort } from '../helpers/free-port.js';
import { connected, pusherClient, subscribed } from '../helpers/pusher-clients.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';

const ROOT = new URL('../..', import.meta.url).pathname;
let node: RegtestNode;
let redis: RedisServer;
let dir: string;

before(async () => {
  [node, redis] = await Promise.all([startLitecoind({ funded: true }), startRedis()]);
  dir = mkdtempSync(join(tmpdir(), 'outpoint-fault-redis-'));
});

after(async () => {
  await node?.stop();
  await redis?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Ten v2 requests at once: the limit of 5 a second refuses some of them (whoever counts: Redis or the process). */
async function burstRefused(port: number): Promise<number> {
  const answers = await Promise.all(Array.from({ length: 10 }, () => get(port, '/api/v2/get_info/LTCTEST')));
  assert.ok(answers.every((a) => a.status === 200 || a.status === 429), `only 200 and 429: ${answers.map((a) => a.status).join(',')}`);
  return answers.filter((a) => a.status === 429).length;
}

describe('Redis restarts under serve', () => {
  it('events, rate limits and quotas work locally while Redis is down and through Redis again after; nothing crashes', async () => {
    const port = await freePort();
    const config = join(dir, 'outpoint.toml');
    writeFileSync(config, `data_dir = "${dir}"\n[store]\nurl = "sqlite:${join(dir, 'store.db')}"\n[redis]\nurl = "${redis.url}"\n[http]\nrate_limit_per_second = 5\n` +
      `[market]\nsources = []\n[networks.LTCTEST]\nchain = "regtest"\npoll_ms = 100\nrpc_url = "${node.rpcUrl}"\n`);
    const cli = async (...args: string[]) => (await promisify(execFile)(process.execPath, ['bin/outpoint.js', ...args, '--config', config], { cwd: ROOT })).stdout;
    await cli('plans', 'set', 'faults', '--max-daily-requests', '1000');
    const key = /API key \(shown once, store it now\): (opk_[A-Za-z0-9_-]{43})/.exec(await cli('accounts', 'create', '--email', 'redis@example.com', '--plan', 'faults'))![1]!;
    const child = spawn(process.execPath, ['bin/outpoint.js', 'serve', '--config', config], { cwd: ROOT, env: { ...process.env, OUTPOINT_HTTP_PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const pusher = pusherClient(port, 'outpoint');
    try {
      await waitFor(() => get(port, '/ready/LTCTEST').then((r) => r.status === 200, () => false), 60_000, 'serve ready', 200);
      await connected(pusher);
      const blocks: number[] = [];
      (await subscribed(pusher, 'blockchain_update_ltctest')).bind('block_update', () => blocks.push(Date.now()));
      const v3 = async () => (await get(port, '/api/v3/network_info/LTCTEST', { 'API-KEY': key })).status;
      const used = async () => ((await get(port, '/api/v3/account_info', { 'API-KEY': key })).body['data'] as { num_requests_used: { today: number } }).num_requests_used.today;

      assert.ok((await burstRefused(port)) > 0, 'the rate limit counts through Redis');
      await node.mine(1);
      await waitFor(() => blocks.length === 1, 10_000, 'a block event through Redis');

      await redis.restart(3_000);
      // While it is down (and just after, on an empty server): events from the process itself, local counting.
      await node.mine(1);
      await waitFor(() => blocks.length === 2, 10_000, 'a block event while Redis is down');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      assert.ok((await burstRefused(port)) > 0, 'the rate limit still limits');
      const during = 5;
      for (let i = 0; i < during; i++) assert.equal(await v3(), 200, 'v3 answers');
      const countedDuring = await used();

      // Back: a block event, the limit, and the day's count kept (the store seeds the fresh Redis).
      await node.mine(1);
      await waitFor(() => blocks.length === 3, 15_000, 'a block event after Redis is back');
      await new Promise((resolve) => setTimeout(resolve, 1100));
      assert.ok((await burstRefused(port)) > 0, 'the rate limit counts again');
      assert.equal(await v3(), 200);
      await waitFor(async () => (await used()) >= countedDuring, 10_000, 'usage kept across the restart');
      assert.ok(countedDuring >= during, `requests counted while Redis was down (${countedDuring})`);
      assert.equal(child.exitCode, null, 'serve kept running');
      assert.match(log, /redis/i, 'the outage was logged');
    } finally {
      pusher.disconnect();
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    assert.equal(child.exitCode, 0, 'a clean stop after the outage');
  });
});
