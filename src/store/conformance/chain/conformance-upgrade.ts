/**
 * Conformance: upgrading a version-5 store to the compact chain layout keeps everything that cannot be rebuilt from a
 * node (accounts, keys, plans, usage, prices, short addresses handed out) and empties the chain index, which the
 * indexer then rebuilds with an initial (bulk) sync.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { SCHEMA_VERSION } from '../../common/schema/schema-version.js';
import { ChainBuilder, p2pkh } from '../block-builder.js';
import type { StoreHarness } from '../harness.js';

export function upgradeTests(harness: StoreHarness): void {
  it('upgrading from schema version 5 keeps accounts, keys, usage, prices and short addresses; the chain index starts over', async () => {
    const db = await harness.create();
    try {
      await db.store.migrate(5);
      assert.equal(await db.store.schemaVersion(), 5);
      // Rows as version 5 wrote them (today's code writes today's columns, so plain SQL of that layout).
      const blob = (hex: string): string => (db.engine === 'sqlite' ? `x'${hex}'` : `'\\x${hex}'::bytea`);
      const yes = db.engine === 'sqlite' ? '1' : 'TRUE';
      await db.exec("INSERT INTO plans (name, max_daily_requests, updated_at) VALUES ('starter', 1000, 10)");
      await db.exec(`INSERT INTO accounts (email, plan, created_at, period_ends_at, will_renew, last_login_at)
        VALUES ('ops@example.com', 'starter', 10, 99, ${yes}, NULL)`);
      const accountId = "(SELECT id FROM accounts WHERE email = 'ops@example.com')";
      await db.exec(`INSERT INTO api_keys (account_id, prefix, key_hash, created_at, revoked_at)
        VALUES (${accountId}, 'opk_Ab12Cd34', ${blob('07'.repeat(32))}, 11, NULL)`);
      await db.exec(`INSERT INTO api_usage (account_id, day, count) VALUES (${accountId}, '2026-11-20', 42)`);
      await db.exec("INSERT INTO price_latest (coin, base, exchange, price, time, checked_at) VALUES ('LTC', 'USD', 'kraken', '81.5', 1000, 1000)");
      await db.exec("INSERT INTO price_history (coin, base, exchange, time, price) VALUES ('LTC', 'USD', 'kraken', 1000, '81.5')");
      await db.exec("INSERT INTO short_addresses (net, short, address, created_at) VALUES (3, 'Ab3', 'ltc1qexampleaddress', 12)");
      const short = 'Ab3';
      // A version-5 chain index: a tip in the old shared table.
      await db.exec(`INSERT INTO tips (net, height, hash) VALUES (3, 7, ${blob('ab'.repeat(32))})`);

      const store = await db.reopen();
      await store.migrate();
      assert.equal(await store.schemaVersion(), SCHEMA_VERSION);
      assert.equal(await store.network('LTC').getTip(), null, 'the chain index starts over');
      const kept = await store.accounts().findAccountByEmail('ops@example.com');
      assert.equal(kept?.plan.name, 'starter');
      assert.equal((await store.accounts().findKeyByPrefix('opk_Ab12Cd34'))?.accountId, kept?.id);
      assert.deepEqual(await store.accounts().getUsage(kept!.id, ['2026-11-20']), [42]);
      assert.equal((await store.prices().latest('LTC', 'USD'))[0]?.price, '81.5');
      assert.equal(await store.shortAddresses().addressFor('LTC', short), 'ltc1qexampleaddress');
      // And the new layout works.
      const chain = new ChainBuilder();
      await store.network('LTC').connectBlocks([chain.add(p2pkh(1), 50n)]);
      assert.equal((await store.network('LTC').getAddressTotals(p2pkh(1))).confirmedReceived, 50n);
    } finally {
      await db.dispose();
    }
  });
}
