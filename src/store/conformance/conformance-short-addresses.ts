/** Conformance: short address forms are 3–6 base58 characters, unique, stable across calls, processes and restarts. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { withDb } from './conformance-chain.js';
import type { StoreHarness } from './harness.js';

const SHAPE = /^[1-9A-HJ-NP-Za-km-z]{3,6}$/;

export function shortAddressTests(harness: StoreHarness): void {
  it('assigns a short form once (finding one assigns none) and resolves it both ways', () => withDb(harness, async (db) => {
    const shorts = db.store.shortAddresses();
    const address = 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn';
    assert.equal(await shorts.findShort('BTCTEST', address), null, 'finding assigns nothing');
    assert.equal(await shorts.findShort('BTCTEST', address), null);
    const short = await shorts.shortFor('BTCTEST', address);
    assert.equal(await shorts.findShort('BTCTEST', address), short);
    assert.equal(await shorts.findShort('LTCTEST', address), null, 'per network');
    assert.match(short, SHAPE);
    assert.equal(await shorts.shortFor('BTCTEST', address), short, 'stable on repeat');
    assert.equal(await shorts.addressFor('BTCTEST', short), address);
    assert.equal(await shorts.addressFor('LTCTEST', short), null, 'per network');
    assert.equal(await shorts.addressFor('BTCTEST', 'zzzzzz'), null);
    assert.equal(await shorts.addressFor('BTCTEST', 'not a code!'), null);
    const reopened = await db.reopen();
    assert.equal(await reopened.shortAddresses().addressFor('BTCTEST', short), address, 'persisted');
    assert.equal(await reopened.shortAddresses().shortFor('BTCTEST', address), short, 'stable after restart');
  }));

  it('keeps every code unique when derived prefixes collide', () => withDb(harness, async (db) => {
    const shorts = db.store.shortAddresses();
    // 1,500 addresses over 58^3 three-character codes: prefix collisions are certain, so the fallbacks are exercised.
    const addresses = Array.from({ length: 1500 }, (_, i) => `addr-${i}`);
    const codes = new Map<string, string>();
    for (const address of addresses) {
      const code = await shorts.shortFor('LTC', address);
      assert.match(code, SHAPE);
      assert.ok(!codes.has(code), `code ${code} given twice`);
      codes.set(code, address);
    }
    assert.ok([...codes.keys()].some((c) => c.length > 3), 'some codes needed a longer prefix');
    for (const [code, address] of [...codes].slice(0, 200)) assert.equal(await shorts.addressFor('LTC', code), address);
  }));

  it('concurrent requests for one address agree on its code', () => withDb(harness, async (db) => {
    const shorts = db.store.shortAddresses();
    const results = await Promise.all(Array.from({ length: 8 }, () => shorts.shortFor('DOGE', 'DTestAddressRace')));
    assert.equal(new Set(results).size, 1);
  }));
}
