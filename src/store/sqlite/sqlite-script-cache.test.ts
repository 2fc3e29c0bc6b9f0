/**
 * The SQLite writer's script cache must never make totals or ids differ from what the database holds: each test
 * changes script rows behind the cache (another connection, a rolled-back batch, the mempool) and checks the
 * next batch against exact expected figures.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { ChainBuilder, p2pkh, spend } from '../conformance/block-builder.js';
import { SqliteStore } from './sqlite-store.js';

const NET = 'LTC' as const;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function openPair(): Promise<{ path: string; store: SqliteStore }> {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-script-cache-'));
  dirs.push(dir);
  const path = join(dir, 'store.db');
  const store = new SqliteStore({ path });
  await store.migrate();
  return { path, store };
}

test('a tip disconnected by another connection: the next batch adds to the database totals, not to stale cached ones', async () => {
  const { path, store } = await openPair();
  const miner = p2pkh(1);
  const chain = new ChainBuilder();
  const net = store.network(NET);
  await net.connectBlocks([chain.add(miner, 50n), chain.add(miner, 50n)]);
  assert.equal((await net.getAddressTotals(miner)).confirmedReceived, 100n);

  const other = new SqliteStore({ path });
  await other.network(NET).disconnectTip(chain.blocks[1]!.block.header.hash);
  await other.close();

  const fork = chain.forkAt(1);
  await net.connectBlocks([fork.add(miner, 7n)]);
  const totals = await net.getAddressTotals(miner);
  assert.equal(totals.confirmedReceived, 57n);
  assert.equal(totals.txCount, 2);
  await store.close();
});

test('a batch that rolls back after writing its scripts leaves no trace in the cache', async () => {
  const { store } = await openPair();
  const miner = p2pkh(2);
  const chain = new ChainBuilder();
  const net = store.network(NET);
  await net.connectBlocks([chain.add(miner, 50n)]);
  // The last statement of a batch (moving the tip) fails: scripts, totals and everything else roll back.
  store.connection.exec("CREATE TRIGGER injected_failure BEFORE UPDATE ON tips BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
  const fresh = p2pkh(5);
  const bad = chain.forkAt(1);
  await assert.rejects(net.connectBlocks([bad.add(fresh, 50n), bad.add(miner, 50n)]), /injected failure/);
  store.connection.exec('DROP TRIGGER injected_failure');

  const good = chain.forkAt(1);
  await net.connectBlocks([good.add(miner, 3n)]);
  await net.connectBlocks([good.add(fresh, 4n)]);
  const totals = await net.getAddressTotals(miner);
  assert.equal(totals.confirmedReceived, 53n);
  assert.equal(totals.receivedTxCount, 2);
  assert.equal((await net.getAddressTotals(fresh)).confirmedReceived, 4n);
  await store.close();
});

test('a script first stored by the mempool keeps its id when a block pays it', async () => {
  const { store } = await openPair();
  const miner = p2pkh(3);
  const fresh = p2pkh(4);
  const chain = new ChainBuilder();
  const net = store.network(NET);
  const first = chain.add(miner, 50n);
  await net.connectBlocks([first]);
  // The cache knows every script of the network now (it started empty): the mempool adds one behind it.
  const pay = spend([{ txid: first.block.txs[0]!.txid, vout: 0 }], [{ script: fresh, value: 40n }]);
  const [added] = await net.addMempoolTxs([{ tx: pay, seenAt: 1 }]);
  assert.equal(added!.status, 'added');
  assert.equal((await net.getAddressTotals(fresh)).unconfirmedReceived, 40n);

  await net.connectBlocks([chain.add(miner, 50n, [pay])]);
  const totals = await net.getAddressTotals(fresh);
  assert.equal(totals.confirmedReceived, 40n);
  assert.equal(totals.unconfirmedReceived, 0n);
  const ids = store.connection.prepare('SELECT count(*) AS n FROM scripts_ltc WHERE script = ?').get(Buffer.from(fresh)) as { n: bigint };
  assert.equal(ids.n, 1n);
  await store.close();
});
