import { createHash, hash } from 'node:crypto';

// node:crypto (OpenSSL, SHA-NI where the CPU has it) is several times faster than pure-JS
// sha256 for the txid hashing that dominates block parsing.

// The one-shot crypto.hash avoids allocating a Hash object per call (about a third faster on tx-sized inputs).
export function sha256(data: Uint8Array): Uint8Array {
  return hash('sha256', data, 'buffer');
}

export function sha256d(data: Uint8Array): Uint8Array {
  return hash('sha256', hash('sha256', data, 'buffer'), 'buffer');
}

export function hash160(data: Uint8Array): Uint8Array {
  return createHash('ripemd160').update(hash('sha256', data, 'buffer')).digest();
}

/** Hex of the bytes in reverse order: how txids and block hashes are displayed. */
export function toDisplayHex(hash: Uint8Array): string {
  return Buffer.from(hash).reverse().toString('hex');
}

/** Internal (little-endian) bytes of a display-order hex hash. */
export function fromDisplayHex(hex: string): Uint8Array {
  return Buffer.from(hex, 'hex').reverse();
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export function fromHex(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new RangeError('not a hex string');
  return Buffer.from(hex, 'hex');
}
