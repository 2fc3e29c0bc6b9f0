/**
 * An existing store gets the scripthash index by a background build (issue 49; docs/schema.md, "Scripthash index"): a
 * store indexed by `outpoint serve` is taken back to schema 14 (no scripthash index), and the next `outpoint serve`
 * upgrades it. Until the build is done, scripthash methods answer -32603 "being built (N % done)" and never a wrong
 * answer, while headers answer at once; then every answer is the node's. On SQLite (a build in steps, slowed here by
 * the test knobs to one script per step) the process is killed with SIGKILL halfway and the next one goes on from
 * where the last committed step left off rather than from the start. PostgreSQL builds with one CREATE INDEX
 * CONCURRENTLY, which cannot be stopped halfway on purpose; its test checks the upgrade and the answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { chainTables } from '../../src/store/common/schema/chain-tables.js';
import { openSqliteDatabase } from '../../src/store/sqlite/connection/sqlite-binding.js';
import { nodeElectrumView } from '../helpers/electrum-oracle.js';
import { scriptOf } from '../helpers/electrum-scenario.js';
import { startElectrumServe, type ElectrumServe } from '../helpers/electrum-serve.js';
import { ElectrumCallError, scripthashOf, type ElectrumTestClient } from '../helpers/electrum-test-client.js';
import { startBitcoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';
import { waitFor } from '../helpers/wait-for.js';

const PAYEES = 40;
let btc: RegtestNode;
const engines = new StoreEngines();
let scripts: string[] = [];

before(async () => {
  btc = await startBitcoind({ funded: true });
  const addresses = await Promise.all(Array.from({ length: PAYEES }, () => btc.newAddress('bech32')));
  await btc.wallet.call('sendmany', ['', Object.fromEntries(addresses.map((a, i) => [a, (0.01 * (i + 1)).toFixed(2)]))]);
  await btc.mine(1);
  scripts = await Promise.all(addresses.map((a) => scriptOf(btc, a)));
});

after(async () => {
  await btc?.stop();
  await engines.close();
});

/** What a store made before the scripthash index looks like: schema 14, the index and (SQLite) its trigger gone. */
async function backToSchema14(engine: string, url: string): Promise<void> {
  const t = chainTables('BTCTEST');
  if (engine === 'sqlite') {
    const db = openSqliteDatabase(url.slice('sqlite:'.length));
    try {
      db.exec(`DROP TRIGGER ${t.scripts}_hash; DROP TABLE ${t.scriptHashes}; UPDATE meta SET value = '14' WHERE key = 'schema_version'`);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP INDEX ${t.scripts}_by_hash`);
    await client.query(`UPDATE meta SET value = '14' WHERE key = 'schema_version'`);
  } finally {
    await client.end();
  }
}

type Answer = { readonly building: number } | { readonly balance: { confirmed: number; unconfirmed: number } };

/** get_balance of the first payee: the build's percent while it runs (any other error fails the test). */
async function balanceOrBuilding(client: ElectrumTestClient): Promise<Answer> {
  try {
    return { balance: await client.request('blockchain.scripthash.get_balance', [scripthashOf(Buffer.from(scripts[0]!, 'hex'))]) };
  } catch (error) {
    if (!(error instanceof ElectrumCallError) || error.code !== -32603) throw error;
    const percent = /being built \((\d+) % done\)/.exec(error.rpcMessage);
    assert.ok(percent, `a clear message: ${error.rpcMessage}`);
    return { building: Number(percent[1]) };
  }
}

/** Every payee's balance and status as the node gives them. */
async function answersAsNode(client: ElectrumTestClient): Promise<void> {
  const view = await nodeElectrumView(btc.rpc, scripts);
  for (const script of scripts) {
    const sh = scripthashOf(Buffer.from(script, 'hex'));
    const expected = view.get(script)!;
    assert.deepEqual(await client.request('blockchain.scripthash.get_balance', [sh]), { confirmed: expected.confirmed, unconfirmed: expected.unconfirmed });
    assert.equal(await client.request('blockchain.scripthash.subscribe', [sh]), expected.status);
  }
}

const SLOW = { OUTPOINT_TEST_SCRIPTHASH_BUILD_STEP: '1', OUTPOINT_TEST_SCRIPTHASH_BUILD_PAUSE_MS: '150' };

for (const engine of testEngines()) {
  describe(`the scripthash index of an upgraded store (${engine})`, () => {
    it(engine === 'sqlite' ? 'is built in the background, answering "being built" until done, and resumes after kill -9' : 'is built in the background, answering "being built" until done', async () => {
      const store = await engines.create(engine);
      const first = await startElectrumServe(btc, store.url);
      try {
        await first.caughtUp(btc);
      } finally {
        await first.stop();
      }
      await backToSchema14(engine, store.url);

      let server: ElectrumServe = await startElectrumServe(btc, store.url, { env: SLOW });
      let client = await server.connect();
      try {
        let seen: Answer = await balanceOrBuilding(client);
        if (engine === 'sqlite') {
          assert.ok('building' in seen, 'the upgraded store answers "being built" at first');
          // Headers and txs do not wait for the index.
          assert.equal((await client.request<{ height: number }>('blockchain.headers.subscribe')).height, await btc.rpc.call('getblockcount'));
          await waitFor(async () => {
            seen = await balanceOrBuilding(client);
            return 'building' in seen && seen.building >= 25;
          }, 60_000, 'the build a quarter done', 20);
          const before = (seen as { building: number }).building;
          client.close();
          server.serve.child.kill('SIGKILL');
          await new Promise((resolve) => server.serve.child.once('exit', resolve));
          await server.stop();

          server = await startElectrumServe(btc, store.url, { env: SLOW });
          client = await server.connect();
          const resumed = await balanceOrBuilding(client);
          assert.ok('building' in resumed && resumed.building >= before, `resumed at ${JSON.stringify(resumed)}, not from the start (${before} % before the kill)`);
        }
        // Never a wrong answer: "being built", or the node's balance.
        const expected = (await nodeElectrumView(btc.rpc, [scripts[0]!])).get(scripts[0]!)!;
        await waitFor(async () => {
          seen = await balanceOrBuilding(client);
          if ('balance' in seen) assert.deepEqual(seen.balance, { confirmed: expected.confirmed, unconfirmed: expected.unconfirmed });
          return 'balance' in seen;
        }, 120_000, 'the build done', 50);
        await answersAsNode(client);
        // SQLite's build logs its end; PostgreSQL's single CREATE INDEX ends within its first step.
        if (engine === 'sqlite') assert.match(server.serve.log.join(''), /scripthash index built/);
      } finally {
        client.close();
        await server.stop();
      }
    });
  });
}
