import assert from 'node:assert/strict';
import { scryptSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { BusyError } from '../../core/domain/errors.js';
import { PASSWORD_PARAMS, PasswordHasher, scryptMaxmem } from './password-hasher.js';

/** Cheap parameters for the behaviour tests; the first test checks the real ones. */
const FAST = { ln: 10, r: 8, p: 1 };

describe('password hasher', () => {
  it('hashes with scrypt N=2^17, r=8, p=1 into a self-describing string that verifies', async () => {
    assert.deepEqual(PASSWORD_PARAMS, { ln: 17, r: 8, p: 1 });
    const hasher = new PasswordHasher();
    const stored = await hasher.hash('correct horse battery staple');
    const m = /^\$scrypt\$ln=17,r=8,p=1\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(stored);
    assert.ok(m, stored);
    // The string is what it says: scrypt with those parameters over the salt gives the hash.
    const expected = scryptSync('correct horse battery staple', Buffer.from(m[1]!, 'base64'), 32, { N: 2 ** 17, r: 8, p: 1, maxmem: scryptMaxmem(PASSWORD_PARAMS) });
    assert.equal(expected.toString('base64').replace(/=+$/, ''), m[2]);
    assert.deepEqual(await hasher.verify('correct horse battery staple', stored), { ok: true, needsRehash: false });
    assert.deepEqual(await hasher.verify('correct horse battery stapler', stored), { ok: false, needsRehash: false });
    // 128 MiB does not fit Node's default scrypt memory limit (32 MiB): maxmem must be passed.
    assert.throws(() => scryptSync('x', 'salt', 32, { N: 2 ** 17, r: 8, p: 1 }), /memory/i);
  });

  it('salts every hash, asks for a rehash of weaker strings, refuses malformed or oversized ones', async () => {
    const fast = new PasswordHasher(2, FAST);
    const [a, b] = [await fast.hash('pw 1234567890'), await fast.hash('pw 1234567890')];
    assert.notEqual(a, b);
    assert.match(a, /^\$scrypt\$ln=10,r=8,p=1\$/);
    assert.deepEqual(await new PasswordHasher(2, { ln: 11, r: 8, p: 1 }).verify('pw 1234567890', a), { ok: true, needsRehash: true });
    assert.deepEqual(await new PasswordHasher(2, { ln: 11, r: 8, p: 1 }).verify('wrong', a), { ok: false, needsRehash: false });
    assert.equal((await fast.verify('pw 1234567890', a.replace('ln=10', 'ln=21'))).ok, false, 'a cost above 2^20 is not computed');
    assert.equal((await fast.verify('pw 1234567890', 'plain text')).ok, false);
    assert.equal((await fast.verify('anything', null)).ok, false);
    // Unicode forms of one password are one password.
    assert.equal((await fast.verify('caf\u00e9 0123456789', await fast.hash('cafe\u0301 0123456789'))).ok, true);
  });

  it('computes at most `concurrency` hashes at once and refuses when its queue is full', async () => {
    const hasher = new PasswordHasher(2, { ln: 14, r: 8, p: 1 });
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, hasher.load.active)), 1);
    const runs = Array.from({ length: 40 }, (_, i) => hasher.hash(`password ${i}`).then(() => 'done', (e: unknown) => e));
    const results = await Promise.all(runs);
    clearInterval(watch);
    assert.equal(peak, 2);
    const refused = results.filter((r) => r instanceof BusyError);
    assert.equal(refused.length, 40 - 2 - 16, 'two running, 2 × 8 queued, the rest refused at once');
    assert.match((refused[0] as BusyError).message, /busy/);
    assert.deepEqual(hasher.load, { active: 0, waiting: 0 });
  });
});
