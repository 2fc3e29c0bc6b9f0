/**
 * The BIP86 key-path-only taproot output key: the internal key tweaked with its own TapTweak hash (BIP341,
 * `taproot_output_script` with no script tree), through @noble/curves' schnorr utilities; no curve code here.
 */
import { schnorr } from '@noble/curves/secp256k1.js';

const { Point } = schnorr;
const ORDER = Point.Fn.ORDER;

function toBigInt(bytes: Uint8Array): bigint {
  return BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`);
}

/** The 32-byte x-only output key Q = lift_x(P) + H_TapTweak(P)·G of a 32-byte x-only internal key P. */
export function taprootOutputKey(internalKey: Uint8Array): Uint8Array {
  if (internalKey.length !== 32) throw new RangeError('a taproot internal key is 32 bytes (x only)');
  const internal = schnorr.utils.lift_x(toBigInt(internalKey));
  const tweak = toBigInt(schnorr.utils.taggedHash('TapTweak', internalKey));
  // BIP341 fails the key when the tweak is not below the group order (probability ~2^-128).
  if (tweak >= ORDER) throw new RangeError('taproot tweak out of range');
  return schnorr.utils.pointToBytes(internal.add(Point.BASE.multiply(tweak)));
}
