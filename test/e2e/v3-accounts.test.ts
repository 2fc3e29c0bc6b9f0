/**
 * v3 accounts without a node: usage counting across a restart (close and reopen the store and the app),
 * counters shared by two app instances through a real redis-server, and the operator CLI run as child
 * processes against a temporary SQLite store.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { generateApiKey } from '../../src/services/accounts/api-keys.js';
import { utcDay } from '../../src/core/limits/utc-day.js';
import { startRedis, type RedisServer } from '../helpers/redis-server.js';
import { call, sameAccountIn, v3App } from './v3-fixture.js';

const run = promisify(execFile);
const dirs: string[] = [];
let redis: RedisServer;

function tempStore(): { path: string; store: SqliteStore } {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-v3-'));
  dirs.push(dir);
  const path = join(dir, 'o.db');
  return { path, store: new SqliteStore({ path }) };
}

before(async () => {
  redis = await startRedis();
});

after(async () => {
  await redis?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('v3 usage counting', () => {
  it('counts survive closing and reopening the store and the app; the quota then still holds', async () => {
    const { path, store } = tempStore();
    await store.migrate();
    const { key } = await sameAccountIn([store.accounts()], 'restart@x.io', 'small', 5);
    let app = await v3App(null, store.network('LTCTEST'), store.accounts());
    for (let i = 0; i < 3; i++) assert.equal((await call(app, '/api/v3/is_valid_address/LTCTEST/x', key)).status, 200);
    await app.close(); // flushes the pending counts
    await store.close();

    const reopened = new SqliteStore({ path });
    app = await v3App(null, reopened.network('LTCTEST'), reopened.accounts());
    const info = await call(app, '/api/v3/account_info', key);
    assert.equal(info.body.data.num_requests_used.today, 3);
    assert.equal((await call(app, '/api/v3/is_valid_address/LTCTEST/x', key)).status, 200);
    assert.equal((await call(app, '/api/v3/is_valid_address/LTCTEST/x', key)).status, 200);
    const over = await call(app, '/api/v3/is_valid_address/LTCTEST/x', key);
    assert.equal(over.status, 429);
    assert.match(over.body.data.error_message, /daily request quota of 5 exceeded/);
    assert.ok(Number(over.headers['retry-after']) > 0);
    await app.close();
    assert.deepEqual(await reopened.accounts().getUsage(1, [utcDay(Date.now() / 1000)]), [6], 'the refused request counts too');
    await reopened.close();
  });

  it('two app instances share one quota through Redis', async () => {
    const { store } = tempStore();
    await store.migrate();
    const { key, accountId } = await sameAccountIn([store.accounts()], 'shared@x.io', 'shared', 10);
    const a = await v3App(null, store.network('LTCTEST'), store.accounts(), { redisUrl: redis.url });
    const b = await v3App(null, store.network('LTCTEST'), store.accounts(), { redisUrl: redis.url });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await call(i % 2 ? b : a, '/api/v3/is_valid_address/LTCTEST/x', key)).status);
    assert.deepEqual(statuses, [...Array(10).fill(200), 429, 429]);
    const infoA = await call(a, '/api/v3/account_info', key);
    const infoB = await call(b, '/api/v3/account_info', key);
    assert.equal(infoA.body.data.num_requests_used.today, 12);
    assert.equal(infoB.body.num_requests_used.today, 12, 'also without the envelope');
    const probe = new Redis(redis.url);
    assert.equal(await probe.get(`usage:${accountId}:${utcDay(Date.now() / 1000)}`), '12');
    assert.ok((await probe.ttl(`usage:${accountId}:${utcDay(Date.now() / 1000)}`)) > 86_400);
    probe.disconnect();
    await a.close();
    await b.close();
    // Both processes persisted their own share: the store holds the total.
    assert.deepEqual(await store.accounts().getUsage(accountId, [utcDay(Date.now() / 1000)]), [12]);
    await store.close();
  });
});

describe('v3 keys of the dashboard', () => {
  it('counts each key and records its last use; a rotated key answers until its grace ends; a disabled account is refused', async () => {
    const { store } = tempStore();
    await store.migrate();
    const accounts = store.accounts();
    const { key, accountId } = await sameAccountIn([accounts], 'keys@x.io', 'keys', 100);
    const app = await v3App(null, store.network('LTCTEST'), accounts);
    const second = generateApiKey();
    const secondRecord = await accounts.addKey({ accountId, prefix: second.prefix, hash: second.hash, createdAt: 1, name: 'ci' });
    for (let i = 0; i < 3; i++) assert.equal((await call(app, '/api/v3/is_valid_address/LTCTEST/x', key)).status, 200);
    assert.equal((await call(app, '/api/v3/is_valid_address/LTCTEST/x', second.key)).status, 200);
    assert.equal((await call(app, '/api/v3/account_info', second.key)).body.data.num_requests_used.today, 4, 'one quota for all keys');
    await app.close();
    const first = (await accounts.listKeys(accountId))[0]!;
    const day = utcDay(Date.now() / 1000);
    assert.deepEqual(await accounts.getKeyUsage([first.id, secondRecord.id], day), [3, 1], 'account_info is not counted');
    assert.ok(Math.abs((await accounts.findKeyByPrefix(second.prefix))!.lastUsedAt! - Date.now() / 1000) < 5);

    const again = await v3App(null, store.network('LTCTEST'), accounts);
    const third = generateApiKey();
    const now = Math.floor(Date.now() / 1000);
    await accounts.rotateKey(secondRecord.id, { accountId, prefix: third.prefix, hash: third.hash, createdAt: now }, now, now + 2);
    assert.equal((await call(again, '/api/v3/is_valid_address/LTCTEST/x', second.key)).status, 200, 'in its grace');
    await new Promise((r) => setTimeout(r, 2_100));
    const ended = await call(again, '/api/v3/is_valid_address/LTCTEST/x', second.key);
    assert.equal(ended.status, 401);
    assert.match(ended.body.data.error_message, /grace period has ended/);
    assert.equal((await call(again, '/api/v3/is_valid_address/LTCTEST/x', third.key)).status, 200);
    await accounts.updateAccount(accountId, { disabledAt: now, lastLoginAt: 1234 });
    assert.match((await call(again, '/api/v3/account_info', key)).body.data.error_message, /disabled/);
    await accounts.updateAccount(accountId, { disabledAt: null });
    assert.equal((await call(again, '/api/v3/account_info', key)).body.data.last_login_at, 1234);
    await again.close();
    await store.close();
  });
});

describe('operator CLI', () => {
  const cli = async (config: string, ...args: string[]) => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/main/cli.ts', ...args, '--config', config], { cwd: process.cwd() });
    return stdout;
  };
  const keyIn = (text: string) => /API key \(shown once, store it now\): (opk_[A-Za-z0-9_-]{43})/.exec(text)![1]!;

  it('sets plans, creates accounts, rotates and revokes keys; the API honours each step', async () => {
    const { path } = tempStore();
    const config = join(path, '..', 'outpoint.toml');
    writeFileSync(config, `[store]\nurl = "sqlite:${path}"\n`);
    assert.match(await cli(config, 'plans', 'set', 'starter', '--max-daily-requests', '1000'), /plan starter: 1000 requests per day, no concurrency limit/);
    assert.match(await cli(config, 'plans', 'set', 'starter', '--max-concurrent-requests', '8'), /plan starter: 1000 requests per day, 8 concurrent/, 'the daily limit stays');
    await assert.rejects(cli(config, 'plans', 'set', 'newplan', '--max-concurrent-requests', '8'), /does not exist yet: give its max daily requests/);
    const created = await cli(config, 'accounts', 'create', '--email', 'Ops@Example.com', '--plan', 'starter');
    const first = keyIn(created);
    assert.match(created, /created for ops@example.com on plan starter/);
    await assert.rejects(cli(config, 'accounts', 'create', '--email', 'ops@example.com', '--plan', 'starter'), /exists/);
    await assert.rejects(cli(config, 'accounts', 'create', '--email', 'x@example.com', '--plan', 'nope'), /no plan named nope/);

    const store = new SqliteStore({ path });
    const app = await v3App(null, store.network('LTCTEST'), store.accounts());
    const valid = (key: string) => call(app, '/api/v3/is_valid_address/LTCTEST/x', key).then((r) => r.status);
    assert.equal(await valid(first), 200);

    const rotated = await cli(config, 'keys', 'rotate', '--email', 'ops@example.com');
    const second = keyIn(rotated);
    assert.equal(await valid(first), 401);
    assert.equal(await valid(second), 200);

    const extra = keyIn(await cli(config, 'keys', 'create', '--email', 'ops@example.com'));
    await assert.rejects(cli(config, 'keys', 'rotate', '--email', 'ops@example.com'), /2 active keys/);
    const revoked = await cli(config, 'keys', 'revoke', '--prefix', extra.slice(0, 12));
    assert.match(revoked, new RegExp(`key ${extra.slice(0, 12)}.*revoked`));
    assert.equal(await valid(extra), 401);
    assert.equal(await valid(second), 200);

    await app.close(); // flush usage so `show` sees it: 3 requests passed the key check (401s are not counted)
    const shown = await cli(config, 'accounts', 'show', '--email', 'ops@example.com');
    assert.match(shown, /plan starter: 1000 requests per day, 8 concurrent/);
    // 3 requests passed the key check; a run across UTC midnight counts some of them under yesterday.
    const [, today, yesterday] = /requests today (\d+), yesterday (\d+)/.exec(shown) ?? [];
    assert.equal(Number(today) + Number(yesterday), 3, shown);
    assert.match(shown, new RegExp(`key ${first.slice(0, 12)}….*revoked`));
    assert.match(shown, new RegExp(`key ${second.slice(0, 12)}….*active`));
    assert.match(await cli(config, 'keys', 'revoke', '--email', 'ops@example.com'), /revoked:/);
    assert.match(await cli(config, 'plans', 'list'), /starter\t1000 requests per day, 8 concurrent/);
    await store.close();
  });
});
