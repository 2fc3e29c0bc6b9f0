/**
 * Extended public keys (BIP32 serialisation) read for one network: the version bytes must be one of the network's
 * (extended-key-versions.ts), private keys are refused (a server never needs them), extended or WIF (wif.ts), and the key itself is checked by
 * @scure/bip32 (BIP32 test vector 5: depth, fingerprint, index and point rules).
 */
import { HDKey } from '@scure/bip32';
import { InvalidArgumentError } from '../../core/domain/errors.js';
import { decodeBase58Check } from '../address/base58.js';
import type { NetworkParams } from '../network-params.js';
import { ALL_NETWORK_PARAMS } from '../networks.js';
import { ALL_KEY_VERSIONS, type ExtendedKeyVersion } from './extended-key-versions.js';
import { isWifPayload } from './wif.js';

/** version(4) depth(1) parent fingerprint(4) index(4) chain code(32) key(33). */
const SERIALIZED_LENGTH = 78;

export interface ExtendedPublicKey {
  readonly node: HDKey;
  readonly version: ExtendedKeyVersion;
}

/** The field every wallet input error names: the route's `{xpub|descriptor}` segment. */
export const WALLET_FIELD = 'xpub';

export function invalidWallet(reason: string): InvalidArgumentError {
  return new InvalidArgumentError(WALLET_FIELD, reason);
}

function networksUsing(version: number, isPublic: boolean): string[] {
  const names = ALL_NETWORK_PARAMS.filter((p) => p.extendedKeys.some((v) => (isPublic ? v.public : v.private) === version)).map((p) => p.name);
  return [...new Set(names)];
}

function expected(params: NetworkParams): string {
  const prefixes = params.extendedKeys.map((v) => v.prefix);
  return prefixes.length === 1 ? prefixes[0]! : `${prefixes.slice(0, -1).join(', ')} or ${prefixes[prefixes.length - 1]!}`;
}

/** Reads `text` as an extended public key of `params`' network; InvalidArgumentError (field `xpub`) saying why not. */
export function decodeExtendedKey(params: NetworkParams, text: string): ExtendedPublicKey {
  const bytes = decodeBase58Check(text);
  if (bytes === null) throw invalidWallet('not a valid extended key: a character outside base58 or a wrong base58 checksum');
  if (isWifPayload(bytes)) throw invalidWallet('this is a private key (WIF): private keys are never accepted; give an extended public key');
  if (bytes.length !== SERIALIZED_LENGTH) throw invalidWallet(`not a valid extended key: ${bytes.length} bytes, expected ${SERIALIZED_LENGTH}`);
  const version = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, false);
  const own = params.extendedKeys.find((v) => v.public === version);
  if (!own) {
    const privateOf = ALL_KEY_VERSIONS.find((v) => v.private === version);
    if (privateOf) throw invalidWallet(`this is an extended private key (${text.slice(0, 4)}): give its public key (${privateOf.prefix}); private keys are never accepted`);
    const elsewhere = networksUsing(version, true);
    if (elsewhere.length > 0) {
      throw invalidWallet(`a ${text.slice(0, 4)} key belongs to ${elsewhere.join(', ')}, not ${params.name} (its keys start with ${expected(params)})`);
    }
    throw invalidWallet(`unknown extended key version 0x${version.toString(16).padStart(8, '0')} (${params.name} keys start with ${expected(params)})`);
  }
  try {
    return { node: HDKey.fromExtendedKey(text, { public: own.public, private: own.private }), version: own };
  } catch (error) {
    throw invalidWallet(`not a valid extended public key: ${(error as Error).message.replace(/^HDKey: /, '')}`);
  }
}

/** The same key written with another version's bytes (the network's own, in normalised descriptors). */
export function encodeExtendedKey(node: HDKey, version: ExtendedKeyVersion): string {
  return new HDKey({
    versions: { public: version.public, private: version.private },
    depth: node.depth,
    index: node.index,
    parentFingerprint: node.parentFingerprint,
    chainCode: node.chainCode!,
    publicKey: node.publicKey!,
  }).publicExtendedKey;
}
