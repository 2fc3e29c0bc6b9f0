/**
 * Secrets handed to a browser or a mailbox (session ids, reset, verification and invite links): 256 random bits in
 * base64url. The store keeps only their SHA-256 (nothing to brute-force: a slow hash would add nothing).
 */
import { createHash, randomBytes } from 'node:crypto';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): { token: string; hash: Uint8Array } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: tokenHash(token) };
}

export function tokenHash(token: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(token, 'utf8').digest());
}

/** Texts that cannot be one of our tokens are refused before any lookup. */
export function isTokenShaped(text: unknown): text is string {
  return typeof text === 'string' && TOKEN_PATTERN.test(text);
}
