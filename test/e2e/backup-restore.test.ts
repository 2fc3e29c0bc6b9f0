/**
 * `outpoint backup` / `outpoint restore` as operators run them: an account with a plan, an API key, usage and a short
 * address are made on a PostgreSQL deployment, backed up while `serve` runs, restored into a new SQLite store, and a
 * `serve` there accepts the same key on v3, reports the same plan and usage, and resolves the same short address.
 * A backup of the restored store has the same digests; a restore over data needs --force; a cut-off backup and a
 * chain snapshot are refused.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import pgDriver from 'pg';
import { openSqliteDatabase } from '../../src/store/sqlite/connection/sqlite-binding.js';
import { readManifest } from '../helpers/dump-manifest.js';
import { CliConfigs, runCli } from '../helpers/outpoint-cli.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { httpJson, startServe, type ServeProcess } from '../helpers/serve-process.js';
import { StoreEngines } from '../helpers/store-engines.js';

let node: RegtestNode;
const engines = new StoreEngines();
const configs = new CliConfigs();
const serves: ServeProcess[] = [];

async function cli(...args: string[]): Promise<string> {
  const result = await runCli(args);
  assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

async function serveAtTip(config: string): Promise<ServeProcess> {
  const serve = await startServe(config);
  serves.push(serve);
  const height = await node.rpc.call<number>('getblockcount');
  // At the tip and out of the initial sync (chain endpoints answer 503 until then).
  await waitFor(async () => {
    const info = (await httpJson(serve.port, '/api/v2/get_info/LTCTEST')).body.data as { blocks?: number; syncing?: unknown } | undefined;
    return info?.blocks === height && info.syncing === false;
  }, 60_000, 'serve at the node tip');
  return serve;
}

/**
 * Waits until a v3 call answers 200: on a loaded machine a just-synced process may still answer 503 for a moment
 * (its sync gate or node calls). Fails with the last reply.
 */
async function v3Answers(call: () => ReturnType<typeof httpJson>): Promise<void> {
  const last: { reply?: Awaited<ReturnType<typeof httpJson>> } = {};
  try {
    await waitFor(async () => (last.reply = await call()).status === 200, 30_000, 'v3 answering 200');
  } catch {
    assert.fail(`v3 answered ${last.reply?.status}: ${JSON.stringify(last.reply?.body)}`);
  }
}

function accountsIn(path: string): number {
  const db = openSqliteDatabase(path, { readonly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM accounts').get() as { n: number }).n);
  } finally {
    db.close();
  }
}

/** Requests counted in the store (what a backup reads), summed over accounts and days. */
async function storedUsage(url: string): Promise<number> {
  const client = new pgDriver.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>('SELECT COALESCE(sum(count), 0) AS n FROM api_usage')).rows[0]!.n);
  } finally {
    await client.end();
  }
}

before(async () => {
  node = await startLitecoind({ funded: true });
});

after(async () => {
  for (const s of serves) await s.stop();
  await node?.stop();
  await engines.close();
  configs.cleanup();
});

describe('backup and restore', () => {
  const file = configs.path('accounts.backup');

  it('carries accounts, keys, plans, usage and short addresses from PostgreSQL to SQLite', async () => {
    const pg = await engines.create('postgres');
    await pg.store.close();
    const source = configs.write(pg.url, node.rpcUrl);
    await cli('plans', 'set', 'gold', '--max-daily-requests', '5000', '--config', source);
    const created = await cli('accounts', 'create', '--email', 'ops@example.com', '--plan', 'gold', '--config', source);
    const key = /API key \(shown once, store it now\): (opk_\S+)/.exec(created)![1]!;
    const address = await node.newAddress('bech32');
    await node.send(address, '1.5');
    await node.mine(1);

    const a = await serveAtTip(source);
    const v3 = (serve: ServeProcess, path: string): ReturnType<typeof httpJson> => httpJson(serve.port, path, { headers: { 'API-KEY': key } });
    await v3Answers(() => v3(a, `/api/v3/balance/LTCTEST/${address}`));
    for (let i = 0; i < 3; i++) assert.equal((await v3(a, `/api/v3/balance/LTCTEST/${address}`)).status, 200);
    const short = (await httpJson(a.port, `/api/v2/short/LTCTEST/${address}`)).body.data.short as string;
    const before = (await v3(a, '/api/v3/account_info')).body.data;
    assert.ok(before.num_requests_used.today >= 4, JSON.stringify(before));
    // account_info counts what this process holds in memory too; the backup reads the store, which serve writes to
    // every flush interval (usage lost to a crash is at most that interval: docs/operations.md).
    await waitFor(async () => (await storedUsage(pg.url)) >= before.num_requests_used.today, 20_000, 'usage flushed to the store');

    await cli('backup', file, '--config', source); // while serving
    const target = configs.path('restored.db');
    const restoredConfig = configs.write(`sqlite:${target}`, node.rpcUrl);
    assert.match(await cli('restore', file, '--config', restoredConfig), /digests verified/);
    const again = configs.path('again.backup');
    await cli('backup', again, '--config', restoredConfig);
    assert.deepEqual((await readManifest(again)).tables, (await readManifest(file)).tables);

    const b = await serveAtTip(restoredConfig);
    await v3Answers(() => v3(b, `/api/v3/balance/LTCTEST/${address}`)); // a 401 (key not restored) never turns into 200
    const info = (await v3(b, '/api/v3/account_info')).body.data;
    assert.deepEqual(info.plan, before.plan);
    assert.equal(info.plan.name, 'gold');
    assert.ok(info.num_requests_used.today >= before.num_requests_used.today, JSON.stringify(info));
    assert.equal((await httpJson(b.port, '/api/v3/balance/LTCTEST/' + address, { headers: { 'API-KEY': 'opk_wrong' } })).status, 401);
    const resolved = await httpJson(b.port, `/api/v2/short/LTCTEST/${short}`);
    assert.equal(resolved.body.data.address, address);
    assert.equal(resolved.body.data.short, short);

    const over = await runCli(['restore', file, '--config', restoredConfig]);
    assert.notEqual(over.code, 0);
    assert.match(over.stderr, /already has rows in accounts.*--force/);
    assert.match(await cli('restore', file, '--force', '--config', restoredConfig), /digests verified/);
    assert.equal(accountsIn(target), 1);
  });

  it('refuses a cut-off backup and a chain snapshot, and restores nothing', async () => {
    const cut = configs.path('cut.backup');
    const bytes = readFileSync(file);
    writeFileSync(cut, bytes.subarray(0, bytes.length - 20));
    const target = configs.path('cut.db');
    const config = configs.write(`sqlite:${target}`, node.rpcUrl);
    const result = await runCli(['restore', cut, '--config', config]);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /is corrupt or truncated/);
    assert.equal(accountsIn(target), 0);

    const snapshot = configs.path('chain.snapshot');
    await cli('snapshot', 'export', '--network', 'LTCTEST', snapshot, '--config', configs.write(`sqlite:${configs.path('restored.db')}`, node.rpcUrl));
    const wrong = await runCli(['restore', snapshot, '--config', config]);
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.stderr, /is not a backup/);
  });
});
