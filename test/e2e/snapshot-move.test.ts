/**
 * `outpoint snapshot export/import` as operators run them: a SQLite index kept by a running `serve` is exported while
 * it serves, imported into a new PostgreSQL store, and a `serve` on that store follows the node from the snapshot's
 * tip: both answer the same for every address and tx (v2 API) before and after new blocks. Refusals: a flipped byte,
 * a cut-off file and a well-formed file with a changed row load nothing; a non-empty index; a tip the node does not
 * have; an unreachable node (unless --no-node-check).
 */
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
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
const addresses: string[] = [];
const txids: string[] = [];

async function atTip(serve: ServeProcess): Promise<void> {
  const height = await node.rpc.call<number>('getblockcount');
  // At the tip and out of the initial sync (chain endpoints answer 503 until then).
  await waitFor(async () => {
    const info = (await httpJson(serve.port, '/api/v2/get_info/LTCTEST')).body.data as { blocks?: number; syncing?: unknown } | undefined;
    return info?.blocks === height && info.syncing === false;
  }, 60_000, 'serve at the node tip');
}

/** Some payments to each address type, then spends of them (history with both directions, change, unspent left). */
async function traffic(rounds: number): Promise<void> {
  for (let r = 0; r < rounds; r++) {
    for (const type of ['legacy', 'p2sh-segwit', 'bech32'] as const) {
      const address = await node.newAddress(type);
      addresses.push(address);
      txids.push(await node.send(address, `${r + 1}.${type.length}`));
    }
    await node.mine(1);
  }
}

async function sameAnswers(a: ServeProcess, b: ServeProcess): Promise<void> {
  const paths = [
    ...addresses.flatMap((x) => ['get_address_balance', 'get_address_received', 'get_address_spent', 'get_tx_unspent', 'get_tx_received', 'get_tx_spent', 'address']
      .map((op) => `/api/v2/${op}/LTCTEST/${x}`)),
    ...txids.flatMap((t) => [`/api/v2/get_tx/LTCTEST/${t}`, `/api/v2/tx/LTCTEST/${t}`, `/api/v2/get_tx_outputs/LTCTEST/${t}`]),
    '/api/v2/get_block/LTCTEST/1', '/api/v2/get_info/LTCTEST',
  ];
  for (const path of paths) {
    const [x, y] = await Promise.all([httpJson(a.port, path), httpJson(b.port, path)]);
    assert.equal(x.status, 200, `${path}: ${JSON.stringify(x.body)}`);
    assert.deepEqual(y.body, x.body, path);
  }
}

function chainIsEmpty(path: string): boolean {
  const db = openSqliteDatabase(path, { readonly: true });
  try {
    const count = (sql: string): number => Number((db.prepare(sql).get() as { n: number }).n);
    return count('SELECT count(*) AS n FROM tips') === 0 && count('SELECT count(*) AS n FROM blocks_ltctest') === 0 && count('SELECT count(*) AS n FROM txs_ltctest') === 0;
  } finally {
    db.close();
  }
}

before(async () => {
  node = await startLitecoind({ funded: true });
  await traffic(3);
});

after(async () => {
  for (const s of serves) await s.stop();
  await node?.stop();
  await engines.close();
  configs.cleanup();
});

describe('snapshot export and import', () => {
  const file = configs.path('ltctest.snapshot');
  let source: ServeProcess;
  let sqliteConfig: string;

  it('exports from SQLite while serving, seeds PostgreSQL, and both follow the node and answer alike', async () => {
    const sqlite = await engines.create('sqlite');
    await sqlite.store.close();
    sqliteConfig = configs.write(sqlite.url, node.rpcUrl);
    source = await startServe(sqliteConfig);
    serves.push(source);
    await atTip(source);
    const exported = await runCli(['snapshot', 'export', '--network', 'LTCTEST', file, '--config', sqliteConfig]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /snapshot of LTCTEST at height \d+/);

    const pg = await engines.create('postgres');
    await pg.store.close();
    const pgConfig = configs.write(pg.url, node.rpcUrl);
    const imported = await runCli(['snapshot', 'import', file, '--config', pgConfig]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /\nchecked: digests; \d+ block headers and their chain to the node's tip;/);
    // The same rows in canonical form: a snapshot of the PostgreSQL copy has the same digests as the SQLite one.
    const again = configs.path('from-postgres.snapshot');
    assert.equal((await runCli(['snapshot', 'export', '--network', 'LTCTEST', again, '--config', pgConfig])).code, 0);
    assert.deepEqual((await readManifest(again)).tables, (await readManifest(file)).tables);

    const again2 = await runCli(['snapshot', 'import', file, '--config', pgConfig]);
    assert.notEqual(again2.code, 0);
    assert.match(again2.stderr, /already has a chain index for LTCTEST/);

    await traffic(2); // blocks after the snapshot: the imported store must follow from its tip
    const seeded = await startServe(pgConfig);
    serves.push(seeded);
    await Promise.all([atTip(source), atTip(seeded)]);
    await sameAnswers(source, seeded);
  });

  it('refuses a flipped byte, a cut-off file and a changed row, and loads nothing', async () => {
    const bytes = readFileSync(file);
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(bytes.length / 2)]! ^= 0x40;
    const inflated = gunzipSync(bytes);
    inflated[Math.floor(inflated.length * 0.6)]! ^= 0x01; // a valid gzip of changed content: only the digests can tell
    const cases = { flipped, truncated: bytes.subarray(0, Math.floor(bytes.length * 0.7)), changed: gzipSync(inflated) };
    for (const [name, content] of Object.entries(cases)) {
      const bad = configs.path(`${name}.snapshot`);
      writeFileSync(bad, content);
      const store = configs.path(`${name}.db`);
      const result = await runCli(['snapshot', 'import', bad, '--config', configs.write(`sqlite:${store}`, node.rpcUrl)]);
      assert.notEqual(result.code, 0, name);
      assert.match(result.stderr, /is corrupt or truncated \(.+\); nothing was loaded/, `${name}: ${result.stderr}`);
      assert.ok(chainIsEmpty(store), `${name}: the store stays empty`);
    }
  });

  it('refuses a store whose other networks hold script keys under another salt, and a network an indexer is writing', async () => {
    const other = configs.path('other.db');
    const config = configs.write(`sqlite:${other}`, node.rpcUrl);
    assert.equal((await runCli(['migrate', '--config', config])).code, 0);
    const db = openSqliteDatabase(other);
    db.prepare("INSERT INTO scripts_btc (key, script, received, sent, tx_count, received_count, sent_count) VALUES (1, X'51', 0, 0, 0, 0, 0)").run();
    db.close();
    const salted = await runCli(['snapshot', 'import', file, '--no-node-check', '--config', config]);
    assert.notEqual(salted.code, 0);
    assert.match(salted.stderr, /already indexes BTC under other script keys \(salt or width\)/);
    assert.ok(chainIsEmpty(other));

    // An empty store made before key widths were recorded (53-bit keys) takes over the snapshot's salt and width.
    const legacy = configs.path('legacy.db');
    const legacyConfig = configs.write(`sqlite:${legacy}`, node.rpcUrl);
    assert.equal((await runCli(['migrate', '--config', legacyConfig])).code, 0);
    const meta = (path: string): Record<string, string> => {
      const m = openSqliteDatabase(path, { readonly: true });
      try {
        return Object.fromEntries((m.prepare("SELECT key, value FROM meta WHERE key LIKE 'script_key_%'").all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
      } finally {
        m.close();
      }
    };
    const before = openSqliteDatabase(legacy);
    before.prepare("DELETE FROM meta WHERE key = 'script_key_bits'").run();
    before.close();
    const takeover = await runCli(['snapshot', 'import', file, '--no-node-check', '--config', legacyConfig]);
    assert.equal(takeover.code, 0, takeover.stderr);
    const header = (await readManifest(file)).header as { script_key_salt: string; script_key_bits: number };
    assert.equal(header.script_key_bits, 47, 'a new store exports 47-bit keys');
    assert.deepEqual(meta(legacy), { script_key_bits: '47', script_key_salt: header.script_key_salt });

    const pg = await engines.create('postgres');
    await pg.store.close();
    const busy = configs.write(pg.url, node.rpcUrl);
    const indexing = await startServe(busy);
    serves.push(indexing);
    const locked = await runCli(['snapshot', 'import', file, '--no-node-check', '--config', busy]);
    assert.notEqual(locked.code, 0);
    assert.match(locked.stderr, /an indexer is running for this network \(advisory lock held\)/);
  });

  it('refuses a tip the node does not have, and an unreachable node unless --no-node-check', async () => {
    const header = (await readManifest(file)).header as { tip: { hash: string } };
    const unreachable = configs.write(`sqlite:${configs.path('offline.db')}`, 'http://u:p@127.0.0.1:9/');
    const offline = await runCli(['snapshot', 'import', file, '--config', unreachable]);
    assert.notEqual(offline.code, 0);
    assert.match(offline.stderr, /node is unreachable .*--no-node-check/);
    const forced = await runCli(['snapshot', 'import', file, '--no-node-check', '--config', unreachable]);
    assert.equal(forced.code, 0, forced.stderr);

    copyFileSync(file, configs.path('stale.snapshot'));
    for (const s of serves) await s.stop();
    await node.rpc.call('invalidateblock', [header.tip.hash]);
    try {
      const store = configs.path('stale.db');
      const stale = await runCli(['snapshot', 'import', configs.path('stale.snapshot'), '--config', configs.write(`sqlite:${store}`, node.rpcUrl)]);
      assert.notEqual(stale.code, 0);
      assert.match(stale.stderr, /node does not have the snapshot's tip [0-9a-f]{64} at height \d+/);
    } finally {
      await node.rpc.call('reconsiderblock', [header.tip.hash]);
    }
  });
});
