import { base58 } from '@scure/base';
import { sha256d } from '../hash.js';

/*
 * Base58 and Base58Check for the API's hot path: every address route decodes its address first, and a bech32 address
 * is tried as base58 first (address.ts). @scure/base reports bad input by throwing, which V8 makes costly (an Error
 * with its stack trace per call: 12 µs per bech32 address against 5 without): here the characters are checked
 * first and a miss is a null. Its digit conversion itself is fast (under 1 µs for an address; a byte-array loop
 * as in Core's base58.cpp measured 3x slower), so it does the conversion.
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Digit of each ASCII code, -1 for characters outside the alphabet. */
const DIGITS = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGITS[ALPHABET.charCodeAt(i)] = i;

/** The bytes of a base58 string ('1' digits leading = zero bytes leading), or null when a character is not base58. */
export function decodeBase58(text: string): Uint8Array | null {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 128 || DIGITS[code]! < 0) return null;
  }
  return base58.decode(text);
}

export function encodeBase58(bytes: Uint8Array): string {
  return base58.encode(bytes);
}

/** The payload of a Base58Check string, or null when it is not base58, is too short, or its checksum is wrong. */
export function decodeBase58Check(text: string): Uint8Array | null {
  const bytes = decodeBase58(text);
  if (bytes === null || bytes.length < 4) return null;
  // A copy, not a view: node:crypto hashes a fresh array measurably faster than a subarray of one.
  const payload = bytes.slice(0, bytes.length - 4);
  const sum = sha256d(payload);
  for (let i = 0; i < 4; i++) if (sum[i] !== bytes[payload.length + i]) return null;
  return payload;
}

/** The payload with its 4-byte sha256d checksum, in base58. */
export function encodeBase58Check(payload: Uint8Array): string {
  const bytes = new Uint8Array(payload.length + 4);
  bytes.set(payload);
  bytes.set(sha256d(payload).subarray(0, 4), payload.length);
  return encodeBase58(bytes);
}
