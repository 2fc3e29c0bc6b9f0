/**
 * Issue 32: webhooks scaled out over PostgreSQL and Redis. One `outpoint serve` indexes, two `serve --api-only`
 * replicas serve v3; all three run a dispatcher claiming deliveries from the shared store. The receiver fails each
 * delivery's first call and accepts the second: every delivery is called exactly twice (once per attempt, never by
 * two processes at once), with its one id.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/outpoint-cli.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { httpJson, startServe } from '../helpers/serve-process.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines } from '../helpers/store-engines.js';

let node: RegtestNode;
let engines: StoreEngines;
let redis: RedisServer;
let receiver: Server;
const processes: { child: ChildProcess; port: number }[] = [];
/** Calls per delivery id, in arrival order. */
const calls = new Map<string, number>();
const bodies = new Map<string, string>();

before(async () => {
  node = await startLitecoind({ funded: true });
  engines = new StoreEngines();
  redis = await startRedis();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.set(String(req.headers['x-outpoint-delivery']), Buffer.concat(chunks).toString());
      const id = String(req.headers['x-outpoint-delivery']);
      const n = (calls.get(id) ?? 0) + 1;
      calls.set(id, n);
      res.statusCode = n === 1 ? 500 : 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const store = await engines.create('postgres');
  const config = join(node.datadir, 'webhooks-scaleout.toml');
  writeFileSync(config, `[store]\nurl = "${store.url}"\n[redis]\nurl = "${redis.url}"\n[http]\nrate_limit_per_second = 0\n[market]\nsources = []\n` +
    `[webhooks]\nallow_private_targets = true\n[networks.LTCTEST]\nchain = "regtest"\nrpc_url = "${node.rpcUrl}"\npoll_ms = 100\n`);
  for (const apiOnly of [false, true, true]) {
    const started = await startServe(config, { apiOnly });
    processes.push({ child: started.child, port: started.port });
  }
  const made = await runCli(['accounts', 'create', '--email', 'scale@example.com', '--plan', 'free', '--config', config]);
  assert.equal(made.code, 0, made.stderr);
  key = /API key \(shown once, store it now\): (\S+)/.exec(made.stdout)![1]!;
});

let key = '';

after(async () => {
  for (const { child } of processes) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await new Promise((resolve) => receiver?.close(resolve));
  await redis?.stop();
  await node?.stop();
  await engines?.close();
});

describe('webhooks over PostgreSQL with three processes', () => {
  it('each delivery is attempted by one process at a time: two calls each (500, then 200), one id', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const [, replica] = processes;
    const addresses = await Promise.all([0, 1, 2, 3, 4].map(() => node.newAddress('bech32')));
    for (const address of addresses) {
      const made = await httpJson(replica!.port, '/api/v3/webhooks', {
        method: 'POST', headers: { 'API-KEY': key, 'content-type': 'application/json' }, body: JSON.stringify({ network: 'LTCTEST', event: 'address', url, address }),
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
    }
    await new Promise((resolve) => setTimeout(resolve, 2500)); // the writer reloads its hooks every 2 s
    for (const address of addresses) await node.send(address, '0.01');
    // At least 5 first-seen and 5 confirmed deliveries (more: the wallet may spend the watched outputs in later sends).
    const at = (depth: number): number => [...bodies.values()].filter((b) => (JSON.parse(b) as { confirmations: number }).confirmations === depth).length;
    const confirmed = (): number => at(1);
    // The block only once the indexer has seen the payments in the mempool: mined at once, a loaded machine's poll
    // can meet them first in the block, and then there is no first-seen event to deliver.
    await waitFor(() => at(0) >= 5, 60_000, 'the first-seen deliveries');
    await node.mine(1);
    await waitFor(() => confirmed() >= 5 && [...calls.values()].every((n) => n >= 2), 60_000, 'every delivery retried and accepted');
    await new Promise((resolve) => setTimeout(resolve, 3000)); // nothing more arrives
    const what = [...bodies.values()].map((b) => { const { address, txid, confirmations } = JSON.parse(b) as Record<string, unknown>; return `${String(address)} ${String(txid)} ${String(confirmations)}`; });
    assert.equal(new Set(what).size, what.length, `one delivery per event and hook: ${what.join('\n')}`);
    assert.ok(what.filter((w) => w.endsWith(' 0')).length >= 5 && what.filter((w) => w.endsWith(' 1')).length >= 5);
    assert.deepEqual([...calls.values()], Array.from({ length: calls.size }, () => 2), 'exactly one call per attempt');
    const listed = await httpJson(processes[2]!.port, '/api/v3/webhooks/deliveries', { headers: { 'API-KEY': key } });
    assert.ok(listed.body.data.every((d: { state: string; attempts: number }) => d.state === 'delivered' && d.attempts === 2));
  });
});
