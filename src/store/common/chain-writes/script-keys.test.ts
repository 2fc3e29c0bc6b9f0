import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KEY_SPACE, nextKey, ScriptKeys, SipHash } from './script-keys.js';

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

test('script keys are 53-bit, deterministic per salt, and differ between salts', () => {
  const a = new ScriptKeys(key);
  const b = new ScriptKeys(Uint8Array.from({ length: 16 }, (_, i) => 255 - i));
  const script = Uint8Array.from([0x76, 0xa9, 0x14, ...new Array<number>(20).fill(7), 0x88, 0xac]);
  const k = a.base(script);
  assert.ok(Number.isSafeInteger(k) && k >= 0 && k < KEY_SPACE);
  assert.equal(a.base(script), k);
  assert.notEqual(b.base(script), k);
  assert.ok(new ScriptKeys(key, 4).base(script) < 16, 'narrowed key space for collision tests');
  assert.equal(nextKey(KEY_SPACE - 1), 0);
  assert.equal(nextKey(5), 6);
});
