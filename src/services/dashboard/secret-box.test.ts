import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { SecretBox } from './secret-box.js';

describe('secret box', () => {
  const key = randomBytes(32);
  const box = new SecretBox(key);
  const secret = new Uint8Array(randomBytes(20));

  it('seals so that only the same key and context open, and any change is detected', () => {
    const sealed = box.seal(secret, 'totp:1');
    assert.equal(sealed.length, 1 + 12 + 20 + 16);
    assert.ok(!Buffer.from(sealed).includes(Buffer.from(secret)), 'the plaintext does not appear');
    assert.notDeepEqual(box.seal(secret, 'totp:1'), sealed, 'a fresh nonce every time');
    assert.deepEqual(box.open(sealed, 'totp:1'), secret);
    assert.throws(() => box.open(sealed, 'totp:2'), 'bound to its account');
    assert.throws(() => new SecretBox(randomBytes(32)).open(sealed, 'totp:1'), 'another key');
    const tampered = Uint8Array.from(sealed);
    tampered[20]! ^= 1;
    assert.throws(() => box.open(tampered, 'totp:1'));
    assert.throws(() => box.open(sealed.subarray(0, 10), 'totp:1'));
  });

  it('tags per purpose, verifies in constant time, reads a lazy key once', () => {
    const tag = box.tag('csrf', 'session');
    assert.equal(box.verifyTag('csrf', 'session', tag), true);
    assert.equal(box.verifyTag('csrf', 'other', tag), false);
    assert.equal(box.verifyTag('pre-session csrf', 'session', tag), false);
    assert.equal(box.verifyTag('csrf', 'session', tag.slice(1)), false);
    let reads = 0;
    const lazy = new SecretBox(() => (reads++, key));
    assert.equal(reads, 0);
    assert.equal(lazy.tag('csrf', 'session'), tag);
    lazy.tag('csrf', 'x');
    assert.equal(reads, 1);
    assert.throws(() => new SecretBox(randomBytes(16)).tag('a', 'b'), /32 bytes/);
  });
});
