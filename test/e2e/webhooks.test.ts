/**
 * Issue 32, webhooks, on real processes: `outpoint serve` (SQLite) over litecoind -regtest, hooks registered over v3
 * with an API key made by the CLI, and receivers on loopback (`[webhooks] allow_private_targets = true`; a second
 * serve with the default refuses private targets). Signatures verify with the secret; a receiver answering 500 then
 * 200 gets the same delivery id twice; a delivery pending when the service is killed with SIGKILL arrives after the
 * restart; tx_confirmations fires at its depth and a reorg (invalidateblock) delivers the change.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../helpers/free-port.js';
import { runCli } from '../helpers/outpoint-cli.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { httpJson, startServe, type ServeProcess } from '../helpers/serve-process.js';
import { WebhookReceiver as Receiver } from '../helpers/webhook-receiver.js';

const dir = mkdtempSync(join(tmpdir(), 'outpoint-webhooks-'));
let node: RegtestNode;
let serve: ServeProcess;
let strict: ServeProcess;
let config: string;
let key: string;
let strictKey: string;
const receivers: Receiver[] = [];

function writeConfig(name: string, extra: string): string {
  const file = join(dir, `${name}.toml`);
  writeFileSync(file, `data_dir = "${join(dir, name)}"\n[store]\nurl = "sqlite:${join(dir, `${name}.db`)}"\n[http]\nrate_limit_per_second = 0\n` +
    `[market]\nsources = []\n${extra}\n[networks.LTCTEST]\nchain = "regtest"\nrpc_url = "${node.rpcUrl}"\npoll_ms = 100\n`);
  return file;
}

async function apiKey(file: string, email: string): Promise<string> {
  const made = await runCli(['accounts', 'create', '--email', email, '--plan', 'free', '--config', file]);
  assert.equal(made.code, 0, made.stderr);
  return /API key \(shown once, store it now\): (\S+)/.exec(made.stdout)![1]!;
}

const api = (port: number, apiKeyValue: string, path: string, body?: unknown) => httpJson(port, `/api/v3${path}`, {
  method: body === undefined ? 'GET' : 'POST',
  headers: { 'API-KEY': apiKeyValue, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

function receiver(statuses: number[] = []): Receiver {
  const r = new Receiver(statuses);
  receivers.push(r);
  return r;
}

before(async () => {
  node = await startLitecoind({ funded: true });
  config = writeConfig('main', '[webhooks]\nallow_private_targets = true\n');
  const strictConfig = writeConfig('strict', '');
  [key, strictKey] = await Promise.all([apiKey(config, 'hooks@example.com'), apiKey(strictConfig, 'strict@example.com')]);
  [serve, strict] = await Promise.all([startServe(config), startServe(strictConfig)]);
});

after(async () => {
  await Promise.all([serve?.stop(), strict?.stop()]);
  for (const r of receivers) await r.close();
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('webhooks', () => {
  it('signed delivery; a 500 is retried with the same delivery id; the list shows no secret', async () => {
    const r = receiver([500]);
    const port = await r.listen();
    const address = await node.newAddress('bech32');
    const made = await api(serve.port, key, '/webhooks', { network: 'LTCTEST', event: 'address', url: `http://127.0.0.1:${port}/hook`, address });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const { secret, id } = made.body.data as { secret: string; id: number };
    assert.match(secret, /^whsec_[0-9a-f]{64}$/);
    const listed = await api(serve.port, key, '/webhooks');
    assert.deepEqual(listed.body.data.map((h: { id: number }) => h.id), [id]);
    assert.equal(JSON.stringify(listed.body).includes(secret), false, 'the secret is shown once');

    const started = Date.now();
    const txid = await node.send(address, '0.25');
    const first = await r.next((c) => JSON.parse(c.body).txid === txid);
    const expected = `sha256=${createHmac('sha256', secret).update(first.body).digest('hex')}`;
    assert.equal(first.headers['x-outpoint-signature'], expected, 'the signature verifies with the secret over the raw body');
    assert.equal(first.headers['x-outpoint-event'], 'address');
    const body = JSON.parse(first.body) as Record<string, unknown>;
    assert.deepEqual([body.event, body.network, body.address, body.confirmations, body.value_received], ['address', 'LTCTEST', address, 0, '0.25000000']);
    await waitFor(() => r.calls.length >= 2, 30_000, 'the retry');
    const retry = r.calls[1]!;
    assert.equal(retry.headers['x-outpoint-delivery'], first.headers['x-outpoint-delivery'], 'the same delivery id on the retry');
    assert.equal(retry.body, first.body);
    assert.ok(Date.now() - started < 25_000, 'first retry within 10 s of the failure');
    await waitFor(async () => {
      const list = await api(serve.port, key, '/webhooks/deliveries');
      const d = list.body.data.find((x: { id: string }) => x.id === first.headers['x-outpoint-delivery']);
      return d?.state === 'delivered' && d.attempts === 2 && d.last_status === 200;
    }, 10_000, 'delivered after two attempts');
  });

  it('tx_confirmations fires at its depth; a reorg that un-confirms the tx delivers the change; block hooks fire per block', async () => {
    const r = receiver();
    const port = await r.listen();
    const address = await node.newAddress('bech32');
    const txid = await node.send(address, '0.5');
    const hook = await api(serve.port, key, '/webhooks', { network: 'LTCTEST', event: 'tx_confirmations', url: `http://127.0.0.1:${port}/c`, txid, confirmations: 2 });
    assert.equal(hook.status, 200, JSON.stringify(hook.body));
    const blocks = await api(serve.port, key, '/webhooks', { network: 'LTCTEST', event: 'block', url: `http://127.0.0.1:${port}/b` });
    assert.equal(blocks.status, 200);
    await new Promise((resolve) => setTimeout(resolve, 2500)); // the writer's index of hooks reloads every 2 s
    const [first] = await node.mine(1);
    await r.next((c) => JSON.parse(c.body).event === 'block' && JSON.parse(c.body).blockhash === first);
    assert.equal(r.calls.filter((c) => JSON.parse(c.body).event === 'tx_confirmations').length, 0, 'not at 1 confirmation');
    const [second] = await node.mine(1);
    const reached = await r.next((c) => JSON.parse(c.body).event === 'tx_confirmations');
    assert.deepEqual((({ txid: t, confirmations, reorg }) => ({ t, confirmations, reorg }))(JSON.parse(reached.body)), { t: txid, confirmations: 2, reorg: false });
    await r.next((c) => JSON.parse(c.body).blockhash === second);

    await node.rpc.call('invalidateblock', [second]);
    const changed = await r.next((c) => JSON.parse(c.body).event === 'tx_confirmations' && JSON.parse(c.body).reorg === true);
    assert.equal(JSON.parse(changed.body).confirmations, 1, 'the depth went down to 1');
    assert.notEqual(changed.headers['x-outpoint-delivery'], reached.headers['x-outpoint-delivery']);
    await node.rpc.call('reconsiderblock', [second]);
  });

  it('a delivery pending when the service is killed (SIGKILL) arrives after the restart, with its id', async () => {
    const port = await freePort();
    const address = await node.newAddress('bech32');
    const made = await api(serve.port, key, '/webhooks', { network: 'LTCTEST', event: 'address', url: `http://127.0.0.1:${port}/down`, address });
    assert.equal(made.status, 200);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const txid = await node.send(address, '0.1');
    // Nobody listens yet: the first attempt fails and the delivery waits for its retry, stored.
    let pending: { id: string; attempts: number } | undefined;
    await waitFor(async () => {
      const list = await api(serve.port, key, '/webhooks/deliveries');
      pending = list.body.data.find((d: { webhook_id: number; state: string; attempts: number }) => d.webhook_id === made.body.data.id && d.state === 'pending' && d.attempts >= 1);
      return pending !== undefined;
    }, 20_000, 'a failed first attempt');
    serve.child.kill('SIGKILL');
    await new Promise((resolve) => serve.child.once('exit', resolve));
    const r = receiver();
    await r.listen(port);
    serve = await startServe(config);
    const arrived = await r.next((c) => JSON.parse(c.body).txid === txid, 40_000);
    assert.equal(arrived.headers['x-outpoint-delivery'], pending!.id);
  });

  it('refuses private targets by default, at registration', async () => {
    const address = await node.newAddress('bech32');
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x', 'http://[::ffff:7f00:1]:9/x', 'http://169.254.169.254/latest', 'http://10.0.0.8/x', 'ftp://example.org/x']) {
      const refused = await api(strict.port, strictKey, '/webhooks', { network: 'LTCTEST', event: 'address', url, address });
      assert.equal(refused.status, 404, url);
      assert.match(refused.body.data.error_message, /url refused/, url);
    }
    const bad = await api(strict.port, strictKey, '/webhooks', { network: 'LTCTEST', event: 'tx_confirmations', url: 'http://127.0.0.1/', txid: 'zz', confirmations: 1 });
    assert.equal(bad.status, 404);
    assert.equal((await api(strict.port, strictKey, '/webhooks')).body.data.length, 0);
  });
});
