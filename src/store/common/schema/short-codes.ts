import { createHash } from 'node:crypto';

/** Base58 (no 0, O, I, l): short forms are read aloud and typed, so look-alike characters are left out. */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const SHORT_MIN_LENGTH = 3;
export const SHORT_MAX_LENGTH = 6;
/** Salts tried before giving up: 4 lengths each, so 256 candidates (58^6 codes make exhausting them implausible). */
const MAX_SALTS = 64;

export const SHORT_CODE_PATTERN = /^[1-9A-HJ-NP-Za-km-z]{3,6}$/;

function base58(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)]! + out;
    n /= 58n;
  }
  return out.padStart(SHORT_MAX_LENGTH, '1');
}

/**
 * Candidate short forms of an address, best first: the 3..6-character prefixes of a base58 digest,
 * then the same for salted digests. Deriving from a hash (not a counter) means a fresh database
 * assigns the same code to the same address when there is no collision, and no counter row is contended.
 */
export function* shortCandidates(net: number, address: string): Generator<string> {
  for (let salt = 0; salt < MAX_SALTS; salt++) {
    const digest = createHash('sha256').update(`${net}:${address}:${salt}`).digest().subarray(0, 8);
    const code = base58(digest);
    for (let len = SHORT_MIN_LENGTH; len <= SHORT_MAX_LENGTH; len++) yield code.slice(0, len);
  }
}
