import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { base58, createBase58check } from '@scure/base';
import { sha256 } from '../hash.js';
import { decodeBase58, decodeBase58Check, encodeBase58, encodeBase58Check } from './base58.js';

const scureCheck = createBase58check(sha256);
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Bitcoin Core's src/test/data/base58_encode_decode.json (hex, base58). */
const CORE_VECTORS: readonly [string, string][] = [
  ['', ''],
  ['61', '2g'],
  ['626262', 'a3gV'],
  ['636363', 'aPEr'],
  ['73696d706c792061206c6f6e6720737472696e67', '2cFupjhnEsSn59qHXstmK2ffpLv2'],
  ['00eb15231dfceb60925886b67d065299925915aeb172c06647', '1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L'],
  ['516b6fcd0f', 'ABnLTmg'],
  ['bf4f89001e670274dd', '3SEo3LWLoPntC'],
  ['572e4794', '3EFU7m'],
  ['ecac89cad93923c02321', 'EJDM8drfXA6uyA'],
  ['10c8511e', 'Rt5zm'],
  ['00000000000000000000', '1111111111'],
  ['000111d38e5fc9071ffcd20b4a763cc9ae4f252bb4e48fd66a835e252ada93ff480d6dd43dc62a641155a5', '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'],
];

/** @scure/base's answer for a decode, with its throw as null. */
function scureDecode(text: string): Uint8Array | null {
  try {
    return base58.decode(text);
  } catch {
    return null;
  }
}

function scureDecodeCheck(text: string): Uint8Array | null {
  try {
    return scureCheck.decode(text);
  } catch {
    return null;
  }
}

/** Random bytes, often starting with zero bytes (the '1' digits). */
function randomPayload(): Uint8Array {
  const bytes = randomBytes(Math.floor(Math.random() * 82));
  const zeros = Math.random() < 0.3 ? Math.min(bytes.length, Math.floor(Math.random() * 4)) : 0;
  bytes.fill(0, 0, zeros);
  return new Uint8Array(bytes);
}

describe('base58', () => {
  it("encodes and decodes Bitcoin Core's vectors", () => {
    for (const [hex, text] of CORE_VECTORS) {
      assert.equal(encodeBase58(Buffer.from(hex, 'hex')), text, hex);
      assert.deepEqual(decodeBase58(text), new Uint8Array(Buffer.from(hex, 'hex')), text);
    }
  });

  it('agrees with @scure/base on 3,000 random payloads, both ways', () => {
    for (let i = 0; i < 3000; i++) {
      const bytes = randomPayload();
      const text = base58.encode(bytes);
      assert.equal(encodeBase58(bytes), text);
      assert.deepEqual(decodeBase58(text), bytes, text);
    }
  });

  it('agrees with @scure/base on random strings, null where it throws (characters outside the alphabet, non-ASCII)', () => {
    const chars = `${ALPHABET}0OIl+/ é\u0000`;
    let rejected = 0;
    for (let i = 0; i < 3000; i++) {
      let text = '';
      for (let n = Math.floor(Math.random() * 40); n > 0; n--) text += chars[Math.floor(Math.random() * chars.length)];
      const ours = decodeBase58(text);
      assert.deepEqual(ours, scureDecode(text), JSON.stringify(text));
      if (ours === null) rejected++;
    }
    assert.ok(rejected > 1000, `only ${rejected} of the strings had a bad character`);
  });
});

describe('base58check', () => {
  it('round-trips payloads and agrees with @scure/base', () => {
    for (let i = 0; i < 2000; i++) {
      const payload = randomPayload();
      const text = encodeBase58Check(payload);
      assert.equal(text, scureCheck.encode(payload));
      assert.deepEqual(decodeBase58Check(text), payload);
    }
  });

  it('is null for a changed digit (wrong checksum), fewer than 4 bytes, and bad characters, as @scure/base throws', () => {
    const text = encodeBase58Check(new Uint8Array(21).fill(7));
    let changed = 0;
    for (let i = 0; i < text.length; i++) {
      for (const c of ALPHABET) {
        if (c === text[i]) continue;
        const other = text.slice(0, i) + c + text.slice(i + 1);
        assert.deepEqual(decodeBase58Check(other), scureDecodeCheck(other), other);
        if (decodeBase58Check(other) === null) changed++;
      }
    }
    assert.ok(changed > text.length * 50, `only ${changed} one-digit changes were refused`);
    for (const short of ['', '1', '2g', 'a3gV', '111']) assert.equal(decodeBase58Check(short), null, short);
    assert.equal(decodeBase58Check(`${text.slice(0, 5)}0${text.slice(6)}`), null);
  });
});
