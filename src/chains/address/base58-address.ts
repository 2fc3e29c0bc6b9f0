import { OP_CHECKSIG, OP_DUP, OP_EQUAL, OP_EQUALVERIFY, OP_HASH160 } from '../script/opcodes.js';
import { decodeBase58Check, encodeBase58Check } from './base58.js';

/*
 * Base58Check addresses (P2PKH, P2SH): one version byte + a 20-byte hash + 4-byte sha256d checksum (base58.ts).
 */

/** Payload length of an address: version byte + hash160. */
const PAYLOAD_LENGTH = 21;

export interface Base58Payload {
  readonly version: number;
  readonly hash: Uint8Array;
}

export function encodeBase58Address(version: number, hash: Uint8Array): string {
  if (!Number.isInteger(version) || version < 0 || version > 255) throw new RangeError(`bad version byte ${version}`);
  if (hash.length !== 20) throw new RangeError(`a base58 address hash is 20 bytes, got ${hash.length}`);
  const payload = new Uint8Array(PAYLOAD_LENGTH);
  payload[0] = version;
  payload.set(hash, 1);
  return encodeBase58Check(payload);
}

/**
 * The version and hash of a Base58Check address, or a reason it is not one. Unlike Core's
 * DecodeBase58, surrounding whitespace is not skipped: API input must be the address itself.
 */
export function decodeBase58Address(address: string): Base58Payload | { readonly error: string } {
  const payload = decodeBase58Check(address);
  if (payload === null) return { error: 'not a valid base58check string (bad character or checksum)' };
  if (payload.length !== PAYLOAD_LENGTH) return { error: `base58 payload is ${payload.length} bytes, expected 21` };
  return { version: payload[0] as number, hash: payload.slice(1) };
}

/** OP_DUP OP_HASH160 <20> OP_EQUALVERIFY OP_CHECKSIG */
export function p2pkhScript(hash: Uint8Array): Uint8Array {
  if (hash.length !== 20) throw new RangeError('P2PKH hash must be 20 bytes');
  return Uint8Array.of(OP_DUP, OP_HASH160, 20, ...hash, OP_EQUALVERIFY, OP_CHECKSIG);
}

/** OP_HASH160 <20> OP_EQUAL */
export function p2shScript(hash: Uint8Array): Uint8Array {
  if (hash.length !== 20) throw new RangeError('P2SH hash must be 20 bytes');
  return Uint8Array.of(OP_HASH160, 20, ...hash, OP_EQUAL);
}
