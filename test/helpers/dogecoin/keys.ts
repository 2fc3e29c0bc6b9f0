/**
 * secp256k1 keys for the stand-in's test wallet and its signature checks, on node:crypto (OpenSSL) alone.
 * Bitcoin's ECDSA signs z = sha256d(sighash preimage); node:crypto's sign('sha256', m) signs sha256(m), so it is
 * given m = sha256(preimage). Signatures are DER with low S (Core's standardness rule), pubkeys compressed.
 */
import { createECDH, createPrivateKey, createPublicKey, ECDH, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { hash160, sha256 } from '../../../src/chains/hash.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

function jwkPoint(uncompressed: Uint8Array): { x: string; y: string } {
  return { x: b64(uncompressed.subarray(1, 33)), y: b64(uncompressed.subarray(33, 65)) };
}

export class DogeKey {
  readonly pubkey: Uint8Array;
  readonly pubkeyHash: Uint8Array;
  readonly #key: KeyObject;

  private constructor(secret: Uint8Array) {
    const ecdh = createECDH('secp256k1');
    ecdh.setPrivateKey(secret);
    this.pubkey = ecdh.getPublicKey(null, 'compressed');
    this.pubkeyHash = hash160(this.pubkey);
    const point = jwkPoint(ecdh.getPublicKey(null, 'uncompressed'));
    this.#key = createPrivateKey({ key: { kty: 'EC', crv: 'secp256k1', d: b64(secret), ...point }, format: 'jwk' });
  }

  static random(): DogeKey {
    for (;;) {
      const secret = randomBytes(32);
      const d = BigInt(`0x${secret.toString('hex')}`);
      if (d > 0n && d < N) return new DogeKey(secret);
    }
  }

  /** DER signature (low S) over sha256d(preimage), without the hashtype byte. */
  sign(preimage: Uint8Array): Uint8Array {
    return lowS(sign('sha256', sha256(preimage), this.#key));
  }
}

/** Checks a DER signature (no hashtype byte) by a compressed or uncompressed pubkey over sha256d(preimage). */
export function verifySignature(pubkey: Uint8Array, der: Uint8Array, preimage: Uint8Array): boolean {
  try {
    const uncompressed = ECDH.convertKey(pubkey, 'secp256k1', undefined, undefined, 'uncompressed') as Buffer;
    const key = createPublicKey({ key: { kty: 'EC', crv: 'secp256k1', ...jwkPoint(uncompressed) }, format: 'jwk' });
    return verify('sha256', sha256(preimage), key, der);
  } catch {
    return false;
  }
}

function lowS(der: Buffer): Uint8Array {
  const rLen = der[3]!;
  const r = der.subarray(4, 4 + rLen);
  const sLen = der[5 + rLen]!;
  let s = BigInt(`0x${der.subarray(6 + rLen, 6 + rLen + sLen).toString('hex')}`);
  if (s <= N / 2n) return der;
  s = N - s;
  let sHex = s.toString(16);
  if (sHex.length % 2) sHex = `0${sHex}`;
  let sBytes = Buffer.from(sHex, 'hex');
  if (sBytes[0]! & 0x80) sBytes = Buffer.concat([Buffer.of(0), sBytes]);
  return Buffer.concat([Buffer.of(0x30, 4 + rLen + sBytes.length, 0x02, rLen), r, Buffer.of(0x02, sBytes.length), sBytes]);
}
