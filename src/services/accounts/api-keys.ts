import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `opk_` + 32 random bytes in base64url (256 bits). The first 8 random characters double as the public key id. */
const KEY_PREFIX = 'opk_';
const KEY_PATTERN = /^opk_[A-Za-z0-9_-]{43}$/;
/** What operators see and the store indexes: `opk_` + 8 characters (48 of the 256 bits; the other 208 stay secret). */
const SHOWN = KEY_PREFIX.length + 8;

export interface GeneratedKey {
  /** Shown once, never stored. */
  readonly key: string;
  readonly prefix: string;
  readonly hash: Uint8Array;
}

export function generateApiKey(): GeneratedKey {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, SHOWN), hash: hashApiKey(key) };
}

/** SHA-256 is enough for 256-bit random keys: there is nothing to brute-force that a slow hash would protect. */
export function hashApiKey(key: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(key, 'utf8').digest());
}

/** The key's public prefix, or null when the text cannot be one of our keys (then no lookup is needed). */
export function apiKeyPrefix(key: string): string | null {
  return KEY_PATTERN.test(key) ? key.slice(0, SHOWN) : null;
}

/** Constant-time comparison of two key hashes. */
export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
