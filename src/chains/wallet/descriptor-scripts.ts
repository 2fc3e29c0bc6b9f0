/**
 * The output scripts each descriptor form puts around its public keys, as Bitcoin Core's descriptor.cpp builds them:
 * BIP381 pk/pkh, BIP382 wpkh and sh(wpkh), BIP386/BIP86 key-path tr, BIP383 multi/sortedmulti bare, in sh(), in wsh()
 * and in sh(wsh()), and BIP384 combo's four forms.
 */
import { hash160, sha256 } from '../hash.js';
import { p2pkhScript, p2shScript } from '../address/base58-address.js';
import { witnessScript } from '../address/segwit-address.js';
import { taprootOutputKey } from './taproot.js';

/** Forms with one key per script. */
export type SingleKind = 'pk' | 'pkh' | 'sh-wpkh' | 'wpkh' | 'tr';
/** multi() or sortedmulti(): bare, in sh(), in wsh(), in sh(wsh()). */
export type MultiKind = 'multi' | 'sh-multi' | 'wsh-multi' | 'sh-wsh-multi';
export type DescriptorKind = SingleKind | MultiKind | 'combo' | 'addr' | 'raw';

const OP_1 = 0x51;
const OP_CHECKSIG = 0xac;
const OP_CHECKMULTISIG = 0xae;

/** A data push of up to 75 bytes (keys are 32, 33 or 65). */
function push(data: Uint8Array): number[] {
  return [data.length, ...data];
}

/** A small number as Core's `CScript() << n` writes it: OP_1..OP_16, else a one-byte push (17 to 20 here). */
function pushNumber(n: number): number[] {
  return n <= 16 ? [OP_1 + n - 1] : [1, n];
}

/** `<key> OP_CHECKSIG` */
export function p2pkScript(publicKey: Uint8Array): Uint8Array {
  return Uint8Array.of(...push(publicKey), OP_CHECKSIG);
}

/** The script a single-key form puts around a public key (33 bytes; 65 where uncompressed keys are allowed; 32 x-only in tr). */
export function keyScript(kind: SingleKind, publicKey: Uint8Array): Uint8Array {
  switch (kind) {
    case 'pk':
      return p2pkScript(publicKey);
    case 'pkh':
      return p2pkhScript(hash160(publicKey));
    case 'wpkh':
      return witnessScript(0, hash160(publicKey));
    case 'sh-wpkh':
      return p2shScript(hash160(witnessScript(0, hash160(publicKey))));
    case 'tr':
      return witnessScript(1, taprootOutputKey(publicKey.length === 32 ? publicKey : publicKey.subarray(1)));
  }
}

/** `OP_k <key_1> … <key_n> OP_n OP_CHECKMULTISIG`, the keys sorted bytewise first for sortedmulti (BIP383). */
export function multisigScript(threshold: number, publicKeys: readonly Uint8Array[], sorted: boolean): Uint8Array {
  const keys = sorted ? [...publicKeys].sort((a, b) => Buffer.compare(a, b)) : publicKeys;
  return Uint8Array.of(...pushNumber(threshold), ...keys.flatMap(push), ...pushNumber(keys.length), OP_CHECKMULTISIG);
}

/** A multisig form's output script: the multisig script itself (bare), or its P2SH, P2WSH or P2SH-P2WSH. */
export function multiScript(kind: MultiKind, threshold: number, publicKeys: readonly Uint8Array[], sorted: boolean): Uint8Array {
  const inner = multisigScript(threshold, publicKeys, sorted);
  switch (kind) {
    case 'multi':
      return inner;
    case 'sh-multi':
      return p2shScript(hash160(inner));
    case 'wsh-multi':
      return witnessScript(0, sha256(inner));
    case 'sh-wsh-multi':
      return p2shScript(hash160(witnessScript(0, sha256(inner))));
  }
}

/** combo()'s forms of a key, in Core's order: P2PK, P2PKH, and for a compressed key on a segwit chain P2WPKH, P2SH-P2WPKH. */
export const COMBO_FORMS: readonly SingleKind[] = ['pk', 'pkh', 'wpkh', 'sh-wpkh'];

/** How many of combo()'s forms a key has on a chain. */
export function comboWidth(compressed: boolean, segwit: boolean): number {
  return compressed && segwit ? 4 : 2;
}
