/**
 * Registering wallet webhooks (issue 50, docs/webhooks.md), on both engines: the wallet is kept normalised with its
 * gap; refusals are precise (no wallet, both names, a bad gap, a bad checksum, a private key, a URL); each counts as
 * one of its account's hooks; `[webhooks] max_wallet_hooks` bounds them across accounts in the insert itself;
 * deleting a hook or the account leaves no hook behind. Schema 15's SQLite rebuild keeps ids and the sequence.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { getNetworkParams } from '../../src/chains/addressing.js';
import { descriptorChecksum } from '../../src/chains/wallet/descriptor-checksum.js';
import { InvalidArgumentError } from '../../src/core/domain/errors.js';
import { SyncGate } from '../../src/services/shared/sync-gate.js';
import { SyncStatusCache } from '../../src/services/shared/sync-status-cache.js';
import { NetworkRegistry } from '../../src/services/shared/network-registry.js';
import { WebhookLimits } from '../../src/services/webhooks/webhook-limits.js';
import { WebhookService } from '../../src/services/webhooks/webhook-service.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';

const NET = 'BTCTEST' as const;
const params = getNetworkParams(NET, 'regtest');
const TPUB = 'tpubDDwf2gdFxFahr9RUtDQCuZmsx34CfdZ7RALAirwC2FGeLBzW1TDiEpqFeRdxLdZD7rfsbZHYwSaT6CLM3TAcYRw6xfRv4U6KCQt4Zuhvjkz';
const body = (i: number): string => `wpkh([4ba43603/84h/1h/${i}h]${TPUB}/<0;1>/*)`;
const desc = (i: number): string => `${body(i)}#${descriptorChecksum(body(i))}`;
const URL_OK = 'http://hooks.example.org/w';
const engines = new StoreEngines();
after(() => engines.close());

async function refused(promise: Promise<unknown>, field: string, message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => error instanceof InvalidArgumentError && error.field === field && message.test(error.message));
}

for (const engine of testEngines()) {
  describe(`wallet webhooks: registration (${engine})`, () => {
    it('normalised wallet and gap; precise refusals; the plan and the global bound; deletion', async () => {
      const { store } = await engines.create(engine);
      const accounts = store.accounts();
      await accounts.setPlan('small', 1000, 1);
      const made = await Promise.all(['a@example.com', 'b@example.com'].map((email) =>
        accounts.createAccount({ email, plan: 'small', createdAt: 1, periodEndsAt: 4_000_000_000, willRenew: true })));
      const [a, b] = made.map((acc) => acc.id) as [number, number];
      const reader = store.network(NET);
      const networks = new NetworkRegistry(new Map([[NET, { params, reader }]]), new SyncGate(new SyncStatusCache({ syncStatus: async () => null }), () => 0));
      // Plan "small": 3 hooks an account; 2 wallet hooks in all.
      const limits = new WebhookLimits({ maxHooks: 20, deliveriesPerDay: 100 }, ['small:3:100'], 2);
      const service = new WebhookService(store.webhooks(), networks, { checkTarget: async () => null }, limits);
      const wallet = (i: number, extra: Record<string, unknown> = {}) => ({ network: NET, event: 'wallet', url: URL_OK, descriptor: desc(i), ...extra });

      const { hook } = await service.create(a, 'small', { ...wallet(0), descriptor: body(0), gap: 50, confirmations: 6 });
      assert.deepEqual([hook.event, hook.descriptor, hook.gap, hook.confirmations, hook.address, hook.script], ['wallet', desc(0), 50, 6, null, null]);
      const listed = await service.list(a);
      assert.deepEqual(listed.map((h) => [h.descriptor, h.gap]), [[desc(0), 50]], 'listed as stored');

      await refused(service.create(a, 'small', { network: NET, event: 'wallet', url: URL_OK }), 'descriptor', /needs a descriptor/);
      await refused(service.create(a, 'small', { ...wallet(1), xpub: TPUB }), 'descriptor', /once/);
      await refused(service.create(a, 'small', wallet(1, { gap: 0 })), 'gap', /1 to 1000/);
      await refused(service.create(a, 'small', wallet(1, { gap: 1001 })), 'gap', /1 to 1000/);
      await refused(service.create(a, 'small', wallet(1, { confirmations: 101 })), 'confirmations', /1 to 100/);
      await refused(service.create(a, 'small', { ...wallet(1), descriptor: `${body(1)}#aaaaaaaa` }), 'xpub', /checksum/);
      await assert.rejects(service.create(a, 'small', { ...wallet(1), descriptor: 'tprv8ZgxMBicQKsPd1EzCPZcQSPhsotX5HvRDCivA7ASNQFmjWuTsW3WWEwUNKFAZrnD9qhz55rtXRuk5MkA3cYJ2ZfvnCfQuR3ydqgTaAfy5ug' }));

      // The global bound: account b gets the second wallet hook, then a third is refused for either account.
      await service.create(b, 'small', wallet(1));
      await refused(service.create(b, 'small', wallet(2)), 'limit', /watches its 2 wallet webhooks/);
      await refused(service.create(a, 'small', wallet(2)), 'limit', /watches its 2 wallet webhooks/);
      // Other hooks are not wallet hooks: the plan's count still applies to all of an account's hooks.
      await service.create(a, 'small', { network: NET, event: 'block', url: URL_OK });
      await service.create(a, 'small', { network: NET, event: 'block', url: URL_OK });
      await refused(service.create(a, 'small', { network: NET, event: 'block', url: URL_OK }), 'limit', /plan allows 3 webhooks/);

      // Deleting frees the global slot; deleting the account removes its wallet hook on both engines.
      await service.remove(b, (await service.list(b))[0]!.id);
      const { hook: again } = await service.create(b, 'small', wallet(2));
      assert.ok(again.id > hook.id + 2, 'ids are never given twice');
      assert.equal(await accounts.deleteAccount(a), true);
      assert.deepEqual((await store.webhooks().byNetwork(NET)).map((h) => h.descriptor), [desc(2)]);
    });
  });
}
