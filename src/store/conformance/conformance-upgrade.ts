/**
 * Conformance: upgrading a version-5 store to the compact chain layout keeps everything that cannot be rebuilt from a
 * node (accounts, keys, plans, usage, prices, short addresses handed out) and empties the chain index, which the
 * indexer then rebuilds with an initial (bulk) sync.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { SCHEMA_VERSION } from '../common/schema-version.js';
import { ChainBuilder, p2pkh } from './block-builder.js';
import type { StoreHarness } from './harness.js';

export function upgradeTests(harness: StoreHarness): void {
  it('upgrading from schema version 5 keeps accounts, keys, usage, prices and short addresses; the chain index starts over', async () => {
    const db = await harness.create();
    try {
      await db.store.migrate(5);
      assert.equal(await db.store.schemaVersion(), 5);
      const accounts = db.store.accounts();
      await accounts.setPlan('starter', 1000, 10);
      const account = await accounts.createAccount({ email: 'ops@example.com', plan: 'starter', createdAt: 10, periodEndsAt: 99, willRenew: true });
      const key = await accounts.addKey({ accountId: account.id, prefix: 'opk_Ab12Cd34', hash: new Uint8Array(32).fill(7), createdAt: 11 });
      await accounts.addUsage([{ accountId: account.id, day: '2026-11-20', count: 42 }]);
      await db.store.prices().record({ coin: 'LTC', base: 'USD', exchange: 'kraken', price: '81.5', time: 1000 });
      const short = await db.store.shortAddresses().shortFor('LTC', 'ltc1qexampleaddress');
      // A version-5 chain index: a tip and a block row in the old shared tables.
      const blob = db.engine === 'sqlite' ? `x'${'ab'.repeat(32)}'` : `'\\x${'ab'.repeat(32)}'::bytea`;
      await db.exec(`INSERT INTO tips (net, height, hash) VALUES (3, 7, ${blob})`);

      const store = await db.reopen();
      await store.migrate();
      assert.equal(await store.schemaVersion(), SCHEMA_VERSION);
      assert.equal(await store.network('LTC').getTip(), null, 'the chain index starts over');
      const kept = await store.accounts().findAccountByEmail('ops@example.com');
      assert.equal(kept?.plan.name, 'starter');
      assert.equal((await store.accounts().findKeyByPrefix('opk_Ab12Cd34'))?.id, key.id);
      assert.deepEqual(await store.accounts().getUsage(account.id, ['2026-11-20']), [42]);
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
