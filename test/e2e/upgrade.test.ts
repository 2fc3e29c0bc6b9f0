/**
 * Upgrading (issue 29, docs/operations.md "Upgrading"): this version starts on stores the previous tagged version
 * (v0.1.0) wrote, SQLite and PostgreSQL, and keeps everything: every plan, account, key (a revoked one stays revoked),
 * usage count, short form and price, and the index answers at once, without a resync. The stores and the chain come
 * from test/fixtures/upgrade/v0.1.0/ (made by that version's code, scripts/make-upgrade-fixture.sh): a fresh regtest
 * node is given the chain's raw blocks, so it serves the same chain, hash for hash. No git history is needed here.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { ChainStore } from '../../src/core/index.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import { startLitecoind, type RegtestNode } from '../helpers/regtest-node.js';
import { startServeWithBody, type ServeProcess } from '../helpers/serve-process.js';
import { pgTool, readBlocks, readExpected, readGzip, type Engine, type UpgradeExpected } from '../upgrade/upgrade-fixture.js';

const expected: UpgradeExpected = readExpected();
let dir: string;
let node: RegtestNode;
let postgres: PostgresServer;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'outpoint-upgrade-'));
  [node, postgres] = await Promise.all([startLitecoind({ wallet: false }), startPostgres()]);
  for (const block of readBlocks()) assert.equal(await node.rpc.call('submitblock', [block]), null);
  assert.equal(await node.rpc.call('getbestblockhash'), expected.tip.hash, 'the fixture chain, rebuilt');
});

after(async () => {
  await node?.stop();
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The old version's store, restored as an operator would (a copied file; a pg_dump loaded with psql). */
async function restore(engine: Engine): Promise<{ url: string; open: () => ChainStore }> {
  if (engine === 'sqlite') {
    const path = join(dir, 'outpoint.db');
    writeFileSync(path, readGzip('store.sqlite.gz'));
    return { url: `sqlite:${path}`, open: () => new SqliteStore({ path }) };
  }
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE outpoint_upgraded');
  await admin.end();
  const url = postgres.urlFor('outpoint_upgraded');
  execFileSync(pgTool('psql'), ['-q', '-v', 'ON_ERROR_STOP=1', '-d', url], { input: readGzip('store.postgres.sql.gz'), stdio: ['pipe', 'ignore', 'pipe'] });
  return { url, open: () => new PostgresStore({ connectionString: url }) };
}

type Reply = { status: number; body: { status: string; data: Record<string, unknown> } & Record<string, unknown> };
async function get(serve: ServeProcess, path: string, key?: string): Promise<Reply> {
  const response = await fetch(`${serve.url}${path}`, { headers: key ? { 'API-KEY': key } : {}, redirect: 'manual' });
  return { status: response.status, body: response.status === 301 || response.status === 302 ? { status: "redirect", data: { location: response.headers.get("location") } } : ((await response.json()) as Reply["body"]) };
}

describe(`upgrade from ${expected.version}`, () => {
  for (const engine of ['sqlite', 'postgres'] as const) {
    it(`${engine}: the store is kept whole and the index answers without a resync`, async () => {
      const want = expected.engines[engine];
      const store = await restore(engine);
      const serve = await startServeWithBody(`[store]\nurl = "${store.url}"\n[accounts]\nsecret_key = "${expected.secretKey}"\n` +
        `[networks.LTCTEST]\nchain = "regtest"\nrpc_url = "${node.rpcUrl}"\npoll_ms = 100\n`);
      try {
        const info = (await get(serve, '/api/v2/get_info/LTCTEST')).body.data;
        assert.deepEqual([info['blocks'], info['syncing']], [expected.tip.height, false], 'at the tip and not syncing from the first answer');
        assert.equal((await get(serve, '/ready/LTCTEST')).status, 200);
        for (const { address, confirmed } of want.balances) {
          assert.equal((await get(serve, `/api/v2/get_address_balance/LTCTEST/${address}`)).body.data['confirmed_balance'], confirmed, address);
        }
        assert.equal((await get(serve, `/api/v2/tx/LTCTEST/${expected.payment.txid}`)).body.data['block_no'], expected.payment.height);
        for (const account of want.accounts) {
          for (const key of account.keys) {
            const reply = await get(serve, '/api/v3/account_info', key.key);
            assert.equal(reply.status, key.revoked ? 401 : 200, `${account.email} ${key.prefix}`);
            if (!key.revoked) assert.equal((reply.body.data['plan'] as { name: string }).name, account.plan);
          }
        }
        for (const { address, short } of want.shorts) {
          assert.equal((await get(serve, `/api/v2/short/LTCTEST/${address}`)).body.data['short'], short, 'the same short form');
          assert.match(String((await get(serve, `/s/ltctest/${short}`)).body.data['location']), new RegExp(`/address/${address}$`));
        }
        const log = serve.log.join('');
        assert.doesNotMatch(log, /building indexes|initial load/, 'no initial load: the old index is used as it is');
      } finally {
        await serve.stop();
      }

      const reopened = store.open();
      try {
        const plans = await reopened.accounts().listPlans();
        assert.deepEqual(plans.map((p) => ({ name: p.name, maxDailyRequests: p.maxDailyRequests, maxConcurrentRequests: p.maxConcurrentRequests })).sort((a, b) => a.name.localeCompare(b.name)), expected.plans);
        for (const account of want.accounts) {
          const found = (await reopened.accounts().findAccountByEmail(account.email)) ?? assert.fail(`${account.email} kept`);
          assert.equal(found.plan.name, account.plan);
          const keys = await reopened.accounts().listKeys(found.id);
          assert.deepEqual(keys.map((k) => ({ prefix: k.prefix, revoked: k.revokedAt !== null })).sort((a, b) => a.prefix.localeCompare(b.prefix)),
            account.keys.map((k) => ({ prefix: k.prefix, revoked: k.revoked })).sort((a, b) => a.prefix.localeCompare(b.prefix)));
          const usage = want.usage.find((u) => u.email === account.email)!;
          assert.deepEqual(await reopened.accounts().getUsage(found.id, [usage.day]), [usage.requests], `${account.email} usage on ${usage.day}`);
        }
        for (const { address, short } of want.shorts) assert.equal(await reopened.shortAddresses().addressFor('LTCTEST', short), address);
        for (const price of want.prices) {
          const latest = await reopened.prices().latest(price.coin, price.base);
          assert.ok(latest.some((p) => p.exchange === price.exchange && Number(p.price) === Number(price.price)), `${price.coin}/${price.base} at ${price.exchange}: ${JSON.stringify(latest)}`);
        }
      } finally {
        await reopened.close();
      }
    });
  }
});
