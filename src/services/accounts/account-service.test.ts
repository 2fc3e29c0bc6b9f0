import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { UnauthorizedError } from '../../core/domain/errors.js';
import { StoreEngines } from '../../../test/helpers/store-engines.js';
import { AccountService, KEY_CACHE_LIMIT } from './account-service.js';
import { generateApiKey } from './api-keys.js';

const engines = new StoreEngines();
after(() => engines.close());

describe('v3 key check', () => {
  it('refuses values of another shape before the cache; caches at most KEY_CACHE_LIMIT verdicts, dropping the oldest', async () => {
    const { store } = await engines.create('sqlite');
    const accounts = new AccountService(store.accounts(), () => 1_000, 60_000);
    await store.accounts().setPlan('p', 100, 1);
    const { key } = await accounts.createAccount('a@x.io', 'p');
    assert.equal((await accounts.authenticate(key)).account.email, 'a@x.io');
    assert.equal(accounts.cachedKeys, 1);
    for (const junk of ['x'.repeat(12_000), `${key}x`, key.slice(0, -1), `opk_${'!'.repeat(43)}`, `OPK_${key.slice(4)}`]) {
      // The synchronous path refuses other lengths at once; a value of the right length is left to authenticate().
      if (junk.length !== key.length) assert.throws(() => accounts.cached(junk), UnauthorizedError);
      else assert.equal(accounts.cached(junk), null);
      await assert.rejects(accounts.authenticate(junk), (e: Error) => e instanceof UnauthorizedError && e.message === 'invalid API key');
    }
    assert.equal(accounts.cachedKeys, 1, 'no junk value was kept');
    // Well-shaped unknown keys are looked up once and their refusal cached, within the bound.
    for (let i = 0; i < KEY_CACHE_LIMIT + 500; i++) await assert.rejects(accounts.authenticate(generateApiKey().key), UnauthorizedError);
    assert.equal(accounts.cachedKeys, KEY_CACHE_LIMIT);
    assert.equal(accounts.knownGood(key), false, 'the oldest verdict (the good key) went first');
    assert.equal((await accounts.authenticate(key)).account.email, 'a@x.io');
    assert.equal(accounts.knownGood(key), true);
  });
});
