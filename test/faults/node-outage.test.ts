/**
 * Fault: the node stops for 60 s, once in the middle of an initial sync and once while following the tip (two nodes,
 * two `outpoint serve` processes, both outages at the same time to keep the wall time to one). Meanwhile the service
 * answers from its index (reads 200, a broadcast the documented 503-free error, never a 500), /ready/LTCTEST says why it
 * is not ready, and when the node is back, indexing resumes by itself: no restart of Outpoint.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { freePort } from '../helpers/free-port.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const OUTAGE_MS = 60_000;
const cleanups: (() => Promise<void>)[] = [];

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface Served {
  readonly child: ChildProcess;
  readonly port: number;
  log(): string;
}

async function serve(node: RegtestNode, env: Record<string, string> = {}): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-fault-node-'));
  const port = await freePort();
  const config = join(dir, 'outpoint.toml');
  writeFileSync(config, `data_dir = "${dir}"\n[store]\nurl = "sqlite:${join(dir, 'store.db')}"\n[http]\nrate_limit_per_second = 0\n[market]\nsources = []\n` +
    `[networks.LTCTEST]\nchain = "regtest"\npoll_ms = 200\nsync_batch_txs = 20\nrpc_url = "${node.rpcUrl}"\n`);
  const child = spawn(process.execPath, ['bin/outpoint.js', 'serve', '--config', config], { cwd: ROOT, env: { ...process.env, ...env, OUTPOINT_HTTP_PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let text = '';
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  cleanups.push(async () => {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  });
  const served = { child, port, log: () => text };
  await waitFor(() => get(served, '/health').then((r) => r.status === 200, () => false), 60_000, 'serve /health', 100);
  return served;
}

async function get(s: Served, path: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${s.port}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const height = async (s: Served): Promise<number> => ((await get(s, '/ready/LTCTEST')).body['index_height'] as number | null) ?? -1;

/** The raw hex of a wallet tx, to rebroadcast while the node is down (it must fail as "node unavailable", not 500). */
async function walletTxHex(node: RegtestNode): Promise<string> {
  const txid = await node.send(await node.newAddress(), '0.01');
  return (await node.wallet.call<{ hex: string }>('gettransaction', [txid])).hex;
}

/**
 * During the outage: readiness names the node, reads answer (from the index, or the documented 503 "syncing" while the
 * initial sync is not done), a broadcast fails as "node unavailable" in the documented shape, and the process runs on.
 */
async function duringOutage(s: Served, syncing: boolean, blockHeight: number, txHex: string): Promise<void> {
  await waitFor(async () => (await get(s, '/ready/LTCTEST')).body['node_error'] !== null, 30_000, '/ready sees the node gone', 250);
  const ready = await get(s, '/ready/LTCTEST');
  assert.equal(ready.status, 503);
  assert.equal(ready.body['reason'], syncing ? 'initial_sync' : 'node_unreachable');
  const block = await get(s, `/api/v2/get_block/LTCTEST/${blockHeight}`);
  assert.equal(block.status, syncing ? 503 : 200, `reads answer: ${JSON.stringify(block.body).slice(0, 200)}`);
  assert.equal(block.body['status'], syncing ? 'fail' : 'success');
  const sent = await get(s, '/api/v2/send_tx/LTCTEST', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tx_hex: txHex }) });
  assert.deepEqual([sent.status, sent.body['status']], [503, 'fail'], `a broadcast fails as "node unavailable": ${JSON.stringify(sent.body)}`);
  assert.equal(s.child.exitCode, null, 'serve keeps running');
}

describe('the node stops for 60 s', () => {
  it('mid-sync and mid-follow: the service answers from its index, /ready says why, indexing resumes by itself', async () => {
    const [syncing, following] = await Promise.all([startLitecoind({ funded: true }), startLitecoind({ funded: true })]);
    cleanups.push(() => syncing.stop(), () => following.stop());
    // A chain long enough that stopping its node lands in the initial load: payments in every block.
    for (let i = 0; i < 60; i++) {
      await syncing.send(await syncing.newAddress(), '0.01');
      await syncing.mine(1);
    }
    const [hexA, hexB] = [await walletTxHex(following), await walletTxHex(syncing)];
    await Promise.all([following.mine(1), syncing.mine(1)]);
    // The syncing side pauses 2 s before each of its index build steps: the node stops while the sync is under way.
    const [a, b] = await Promise.all([serve(following), serve(syncing, { OUTPOINT_TEST_BUILD_STEP_DELAY_MS: '2000' })]);
    // Mid-follow: caught up, then the node goes away.
    await waitFor(async () => (await get(a, '/ready/LTCTEST')).status === 200, 60_000, 'following serve ready', 200);
    const followHeight = await height(a);
    // Mid-sync: the node goes away once the load has begun and before the sync is done.
    await waitFor(async () => (await height(b)) >= 0, 60_000, 'the initial load begun', 20);
    await Promise.all([following.halt(), syncing.halt()]);
    const stoppedAt = Date.now();
    const syncPhase = (await get(b, '/ready/LTCTEST')).body['sync_phase'];
    assert.notEqual(syncPhase, 'ready', 'the node stopped mid-sync');
    await Promise.all([duringOutage(a, false, followHeight, hexA), duringOutage(b, true, 1, hexB)]);
    await delay(OUTAGE_MS - (Date.now() - stoppedAt));
    assert.equal((await get(a, '/api/v2/get_info/LTCTEST')).status, 200, 'still answering after a minute without the node');
    await Promise.all([following.resume(), syncing.resume()]);
    await following.mine(1);
    // Back: the syncing side finishes its sync, the following side indexes the new block, without a restart.
    await waitFor(async () => (await height(a)) === followHeight + 1, 60_000, 'the new block indexed after the outage', 250);
    const target = await syncing.rpc.call<number>('getblockcount');
    await waitFor(async () => (await get(b, '/ready/LTCTEST')).status === 200 && (await height(b)) === target, 60_000, 'the sync finished after the outage', 250);
    for (const s of [a, b]) assert.match(s.log(), /sync failed; retrying/, 'the outage was logged');
  });
});
