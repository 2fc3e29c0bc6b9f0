import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KEY_SPACE, LEGACY_KEY_BITS, NEW_STORE_KEY_BITS, nextKey, ScriptKeys, SipHash, storedKeyBits } from './script-keys.js';

const key = Uint8Array.from({ length: 16 }, (_, i) => i);
const hex = (h: Uint32Array): string => h[0]!.toString(16).padStart(8, '0') + h[1]!.toString(16).padStart(8, '0');

// Reference vectors of the SipHash paper (Aumasson & Bernstein), key 00..0f, message 00..(n-1), output read as a
// little-endian 64-bit number: the 2-4 variant pins every part of the round function and the padding.
test('SipHash-2-4 matches the reference vectors', () => {
  const sip = new SipHash(key, 2, 4);
  const msg = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => i);
  assert.equal(hex(sip.hash(msg(0))), '726fdb47dd0e0e31');
  assert.equal(hex(sip.hash(msg(1))), '74f839c593dc67fd');
  assert.equal(hex(sip.hash(msg(7))), 'ab0200f58b01d137');
  assert.equal(hex(sip.hash(msg(8))), '93f5f5799a932462');
  assert.equal(hex(sip.hash(msg(15))), 'a129ca6149be45e5');
  assert.equal(hex(sip.hash(msg(63))), '958a324ceb064572');
});

test('script keys are as wide as the store says, deterministic per salt, and differ between salts', () => {
  const a = new ScriptKeys(key, LEGACY_KEY_BITS);
  const b = new ScriptKeys(Uint8Array.from({ length: 16 }, (_, i) => 255 - i), LEGACY_KEY_BITS);
  const script = Uint8Array.from([0x76, 0xa9, 0x14, ...new Array<number>(20).fill(7), 0x88, 0xac]);
  const k = a.base(script);
  assert.ok(Number.isSafeInteger(k) && k >= 0 && k < KEY_SPACE);
  assert.equal(a.base(script), k);
  assert.notEqual(b.base(script), k);
  assert.equal(new ScriptKeys(key, NEW_STORE_KEY_BITS).base(script), k % 2 ** NEW_STORE_KEY_BITS, 'a 47-bit key is the 53-bit one narrowed');
  assert.ok(new ScriptKeys(key, 4).base(script) < 16, 'narrowed key space for collision tests');
  assert.equal(nextKey(KEY_SPACE - 1), 0);
  assert.equal(nextKey(5), 6);
});

test('the stored width: a store without the row is 53-bit; anything but an integer of 1-53 is refused', () => {
  assert.equal(storedKeyBits(undefined), 53);
  assert.equal(storedKeyBits(null), 53);
  assert.equal(storedKeyBits('47'), 47);
  for (const bad of ['0', '54', '4.5', 'x']) assert.throws(() => storedKeyBits(bad), RangeError, bad);
  // 47 bits is what keeps SQLite's integer at 6 bytes: its serial types hold up to 2^47 - 1 in 6 bytes.
  let max = 0;
  const salt = Uint8Array.from({ length: 16 }, (_, i) => i * 7);
  const keys = new ScriptKeys(salt, NEW_STORE_KEY_BITS);
  for (let i = 0; i < 5_000; i++) max = Math.max(max, keys.base(Uint8Array.from([0x00, 0x14, i & 255, i >> 8, ...new Array<number>(18).fill(1)])));
  assert.ok(max < 2 ** 47 && max > 2 ** 46, `max ${max}`);
});
