/**
 * Issue 46, the webhook points, on `outpoint serve` over litecoind -regtest: one serve on SQLite (loopback receivers
 * allowed, one delivery in flight at a time, a plan "tiny" of 3 deliveries a day) and one on PostgreSQL (private
 * targets refused, hook names resolved by a DNS server of the test's).
 * - 4: deleting a hook ends its deliveries: re-sending one is a 404, and an account that deleted a hook after 60
 *   deliveries (and tried to re-send them all) does not delay another account's delivery;
 * - 5: an account with a webhook is deleted from the dashboard on both engines (it was a FOREIGN KEY 500);
 * - 6: past its budget an account gets no deliveries, no watches, one log line, and a re-send is refused with why;
 * - 7: IPv6 forms of private IPv4 addresses are refused, a refusal does not say what a name resolved to, and names are
 *   resolved through the configured DNS server with a deadline;
 * - 9: DELETE and a bodiless re-send with `content-type: application/json` are accepted.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { openSqliteDatabase } from '../../src/store/sqlite/connection/sqlite-binding.js';
import { startFakeDns, type FakeDns } from '../helpers/fake-dns.js';
import { FormClient } from '../helpers/form-client.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { httpJson, startServe, type HttpReply, type ServeProcess } from '../helpers/serve-process.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

const REPO = new URL('../..', import.meta.url).pathname;
const PASSWORD = 'correct horse battery staple';
/** The writer's index of hooks reloads every 2 s: a hook matches from the first event after that. */
const INDEX_RELOAD_MS = 2500;

const dir = mkdtempSync(join(tmpdir(), 'outpoint-hooks-hard-'));
let node: RegtestNode;
let postgres: PostgresServer;
let dns: FakeDns;
let sqliteServe: ServeProcess;
let pgServe: ServeProcess;
const configs: Record<string, string> = {};
const keys: Record<string, string> = {};
const receivers: WebhookReceiver[] = [];

function writeConfig(name: string, storeUrl: string, extra: string): string {
  const file = join(dir, `${name}.toml`);
  writeFileSync(file, `data_dir = "${join(dir, name)}"\n[store]\nurl = "${storeUrl}"\n[http]\nrate_limit_per_second = 0\n[market]\nsources = []\n${extra}\n` +
    `[networks.LTCTEST]\nchain = "regtest"\nrpc_url = "${node.rpcUrl}"\npoll_ms = 100\n`);
  return file;
}

/** `outpoint …` as an operator runs it; `input` goes to its standard input (a password for --password-prompt). */
function cli(args: readonly string[], input = ''): string {
  const run = spawnSync(process.execPath, ['bin/outpoint.js', ...args], { cwd: REPO, input, encoding: 'utf8', env: { ...process.env, OUTPOINT_MARKET_SOURCES: '' }, timeout: 120_000 });
  assert.equal(run.status, 0, `${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

function account(config: string, email: string, plan = 'free', password = false): string {
  const out = cli(['accounts', 'create', '--email', email, '--plan', plan, ...(password ? ['--password-prompt'] : []), '--config', config], password ? `${PASSWORD}\n` : '');
  return /API key \(shown once, store it now\): (\S+)/.exec(out)![1]!;
}

/** A v3 call; a bodiless one declares JSON anyway when `json` (as many client wrappers do). */
function api(serve: ServeProcess, key: string, method: string, path: string, body?: unknown, json = false): Promise<HttpReply> {
  const declares = body !== undefined || json;
  return httpJson(serve.port, `/api/v3${path}`, {
    method,
    headers: { 'API-KEY': key, ...(declares ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : json ? { body: '' } : {}),
  });
}

async function receiver(): Promise<{ r: WebhookReceiver; url: string }> {
  const r = new WebhookReceiver();
  receivers.push(r);
  await r.listen();
  return { r, url: r.url() };
}

async function hook(serve: ServeProcess, key: string, spec: Record<string, unknown>): Promise<number> {
  const made = await api(serve, key, 'POST', '/webhooks', { network: 'LTCTEST', ...spec });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  return made.body.data.id as number;
}

before(async () => {
  node = await startLitecoind({ funded: true });
  [postgres, dns] = await Promise.all([
    startPostgres(),
    startFakeDns({ 'sec-loop.test': ['127.0.0.1', '::1'], 'inside.test': ['10.1.2.3'], 'stall.test': 'stall', 'public.test': ['93.184.216.34'] }),
  ]);
  configs.sqlite = writeConfig('sqlite', `sqlite:${join(dir, 'hooks.db')}`, '[webhooks]\nallow_private_targets = true\nconcurrency = 1\nplan_limits = ["tiny:20:3"]\n');
  configs.postgres = writeConfig('postgres', postgres.url, `[webhooks]\ndns_servers = ["127.0.0.1:${dns.port}"]\ndns_timeout_ms = 1000\n`);
  cli(['plans', 'set', 'tiny', '--max-daily-requests', '100000', '--config', configs.sqlite]);
  keys.zombies = account(configs.sqlite, 'zombies@outpoint.test');
  keys.victim = account(configs.sqlite, 'victim@outpoint.test');
  keys.tiny = account(configs.sqlite, 'tiny@outpoint.test', 'tiny');
  keys.sqliteGone = account(configs.sqlite, 'gone@outpoint.test', 'free', true);
  keys.pgGone = account(configs.postgres, 'gone@outpoint.test', 'free', true);
  keys.strict = account(configs.postgres, 'strict@outpoint.test');
  [sqliteServe, pgServe] = await Promise.all([startServe(configs.sqlite), startServe(configs.postgres)]);
});

after(async () => {
  await Promise.all([sqliteServe?.stop(), pgServe?.stop()]);
  for (const r of receivers) await r.close();
  await Promise.all([node?.stop(), postgres?.stop(), dns?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('webhooks under hostile use (issue 46)', () => {
  it("a deleted hook's deliveries are gone: re-sends are 404 and cannot delay another account's delivery (4, 9)", async () => {
    const zombies = await receiver();
    const victim = await receiver();
    const blocks = await hook(sqliteServe, keys.zombies!, { event: 'block', url: zombies.url });
    const address = await node.newAddress('bech32');
    await hook(sqliteServe, keys.victim!, { event: 'address', address, url: victim.url });
    await delay(INDEX_RELOAD_MS);
    await node.mine(60);
    await waitFor(() => zombies.r.calls.length >= 60, 60_000, '60 block deliveries');
    const ids = [...new Set(zombies.r.calls.map((c) => String(c.headers['x-outpoint-delivery'])))];
    await waitFor(async () => (await api(sqliteServe, keys.zombies!, 'GET', '/webhooks/deliveries')).body.data.every((d: { state: string }) => d.state === 'delivered'),
      30_000, 'every block delivery recorded as delivered');

    // Point 9: a DELETE that declares JSON without a body (content-length 0) is a DELETE.
    const deleted = await api(sqliteServe, keys.zombies!, 'DELETE', `/webhooks/${blocks}`, undefined, true);
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.deepEqual(deleted.body.data, { id: blocks, deleted: true });
    assert.deepEqual((await api(sqliteServe, keys.zombies!, 'GET', '/webhooks/deliveries')).body.data, [], 'its deliveries went with it');
    for (const id of ids) {
      const resent = await api(sqliteServe, keys.zombies!, 'POST', `/webhooks/deliveries/${id}/resend`, undefined, true);
      assert.equal(resent.status, 404, `re-send of ${id}: ${JSON.stringify(resent.body)}`);
    }

    // Another account's delivery goes out as usual (with one delivery in flight at a time, 60 re-leased zombies stalled it).
    const sentAt = Date.now();
    const txid = await node.send(address, '0.1');
    await victim.r.next((c) => c.json.txid === txid, 20_000, "the victim's delivery");
    assert.ok(Date.now() - sentAt < 20_000);
    assert.equal(zombies.r.calls.length, ids.length, 'no deleted delivery was sent again');
  });

  it('past the daily budget: no deliveries, no watches, one log line, re-sends refused with the reason (6)', async () => {
    const tiny = await receiver();
    const sentinel = await receiver();
    const address = await node.newAddress('bech32');
    await hook(sqliteServe, keys.tiny!, { event: 'block', url: tiny.url });
    const addressHook = await hook(sqliteServe, keys.tiny!, { event: 'address', address, url: tiny.url });
    // Another account's block hook: once it has a block, the tiny account's matching of that block is done too.
    await hook(sqliteServe, keys.victim!, { event: 'block', url: sentinel.url });
    await delay(INDEX_RELOAD_MS);
    const mined = await node.mine(5);
    await sentinel.r.next((c) => c.json.blockhash === mined[4], 30_000, 'the sentinel has the fifth block');
    await waitFor(() => tiny.r.calls.length >= 3, 30_000, 'three deliveries');
    for (let i = 0; i < 3; i++) await node.send(address, '0.01');
    const [last] = await node.mine(1);
    await sentinel.r.next((c) => c.json.blockhash === last, 30_000, 'the sentinel has the block confirming the payments');
    await delay(1000); // deliveries in flight would have arrived
    assert.equal(tiny.r.calls.length, 3, 'exactly the three deliveries of the budget');
    assert.ok(tiny.r.calls.every((c) => c.json.event === 'block'));

    const db = openSqliteDatabase(join(dir, 'hooks.db'), { readonly: true });
    try {
      const watches = db.prepare('SELECT count(*) AS n FROM webhook_watches WHERE hook_id = ?').get(addressHook) as { n: number };
      assert.equal(watches.n, 0, 'no watch stored past the budget');
    } finally {
      db.close();
    }
    // The tiny account is the only one over its budget here.
    const lines = sqliteServe.log.join('').split('\n').filter((l) => l.includes('daily delivery budget spent'));
    assert.equal(lines.length, 1, `one line for the account, not one per dropped delivery: ${lines.join('\n')}`);

    const delivered = String(tiny.r.calls[0]!.headers['x-outpoint-delivery']);
    const resent = await api(sqliteServe, keys.tiny!, 'POST', `/webhooks/deliveries/${delivered}/resend`);
    assert.equal(resent.status, 429, JSON.stringify(resent.body));
    assert.match(resent.body.data.error_message, /3 webhook deliveries of today are spent/);
    assert.ok(Number(resent.headers.get('retry-after')) > 0, 'Retry-After: until midnight UTC');
  });

  it('deletes an account that has a webhook from the dashboard, on SQLite and PostgreSQL (5)', async () => {
    for (const [serve, key, url] of [[sqliteServe, keys.sqliteGone!, 'http://127.0.0.1:9/hook'], [pgServe, keys.pgGone!, 'http://public.test/hook']] as const) {
      await hook(serve, key, { event: 'address', address: await node.newAddress('bech32'), url });
      const browser = new FormClient(serve.url);
      await browser.get('/dashboard/sign-in');
      const signedIn = await browser.post('/dashboard/sign-in', { email: 'gone@outpoint.test', password: PASSWORD, next: '/dashboard' });
      assert.equal(signedIn.status, 303, signedIn.body.slice(0, 300));
      await browser.get('/dashboard/security');
      const gone = await browser.post('/dashboard/security/delete', { current: PASSWORD });
      assert.equal(gone.status, 303, `${serve.url}: ${gone.body.slice(0, 500)}`);
      assert.equal(gone.location, '/dashboard/sign-in?deleted=1');
      assert.equal((await api(serve, key, 'GET', '/webhooks')).status, 401, 'its key went with it');
    }
    assert.ok(!sqliteServe.log.join('').includes('FOREIGN KEY') && !pgServe.log.join('').includes('foreign key'));
  });

  it('refuses IPv6 forms of private IPv4, never says what a name resolves to, resolves through c-ares with a deadline (7)', async () => {
    const address = await node.newAddress('bech32');
    const refusal = async (url: string): Promise<string> => {
      const made = await api(pgServe, keys.strict!, 'POST', '/webhooks', { network: 'LTCTEST', event: 'address', address, url });
      assert.equal(made.status, 404, `${url}: ${JSON.stringify(made.body)}`);
      assert.match(made.body.data.error_message, /url refused/, url);
      return made.body.data.error_message as string;
    };
    for (const host of ['[::127.0.0.1]', '[::7f00:1]', '[64:ff9b:1::a00:1]', '[2002:7f00:1::]', '[2002:a9fe:a9fe::1]', '[::ffff:0:127.0.0.1]', '[::ffff:0:a00:1]']) {
      await refusal(`http://${host}:8080/x`);
    }
    for (const name of ['sec-loop.test', 'inside.test', 'localhost']) {
      const message = await refusal(`http://${name}:8080/x`);
      assert.match(message, new RegExp(`${name} resolves to a private address$`));
      assert.doesNotMatch(message, /127\.0\.0\.1|::1|10\.1\.2\.3/, 'the address it resolved to is not told');
    }
    assert.ok(dns.queries.includes('sec-loop.test/A') && dns.queries.includes('inside.test/AAAA'), 'asked the configured server');
    const started = Date.now();
    assert.match(await refusal('http://stall.test/x'), /stall\.test does not resolve \(ETIMEOUT\)/);
    assert.ok(Date.now() - started < 5000, `refused by the 1 s deadline (${Date.now() - started} ms)`);
    assert.ok(!dns.queries.includes('localhost/A'), 'localhost is loopback without asking');
    const accepted = await api(pgServe, keys.strict!, 'POST', '/webhooks', { network: 'LTCTEST', event: 'address', address, url: 'http://public.test/x' });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  });
});
