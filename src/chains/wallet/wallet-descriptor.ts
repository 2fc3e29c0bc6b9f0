/**
 * What a wallet route accepts, read into one shape: an output descriptor `pkh(KEY)`, `sh(wpkh(KEY))`, `wpkh(KEY)` or
 * `tr(KEY)` (BIP381, 382, 386) with a ranged KEY (key-expression.ts), its BIP380 checksum verified when given; or a
 * plain extended public key whose version implies the script (SLIP-132) and whose chains are 0 (receive) and 1
 * (change). Both come out as the same normalised descriptor, so one wallet has one spelling (and one cache entry).
 */
import type { NetworkParams } from '../network-params.js';
import { verifyChecksum, descriptorChecksum } from './descriptor-checksum.js';
import { decodeExtendedKey, encodeExtendedKey, invalidWallet, type ExtendedPublicKey } from './extended-key.js';
import { originText, parseWalletKey, type KeyOrigin } from './key-expression.js';

export type DescriptorKind = 'pkh' | 'sh-wpkh' | 'wpkh' | 'tr';

export interface WalletDescriptor {
  readonly kind: DescriptorKind;
  readonly key: ExtendedPublicKey;
  readonly origin: KeyOrigin | null;
  /** Per chain (receive first, then change when the descriptor has one): the unhardened steps from the key to its addresses. */
  readonly chains: readonly (readonly number[])[];
  /** Normalised: the network's own key version, `h` for hardened origin steps, multipath kept, with its checksum. */
  readonly descriptor: string;
}

/** Longer input is no descriptor of the accepted forms (the longest, tr() with an origin, is about 200 characters). */
export const MAX_WALLET_TEXT = 1000;

const SEGWIT_KINDS: ReadonlySet<DescriptorKind> = new Set(['sh-wpkh', 'wpkh', 'tr']);

function wrap(kind: DescriptorKind, key: string): string {
  return kind === 'sh-wpkh' ? `sh(wpkh(${key}))` : `${kind}(${key})`;
}

function normalised(params: NetworkParams, kind: DescriptorKind, key: ExtendedPublicKey, origin: KeyOrigin | null, pathText: string): string {
  const body = wrap(kind, `${originText(origin)}${encodeExtendedKey(key.node, params.extendedKeys[0]!)}/${pathText}`);
  return `${body}#${descriptorChecksum(body)!}`;
}

/** The script function and its KEY text; refuses the descriptor forms a single-key wallet cannot be. */
function splitScript(body: string): { kind: DescriptorKind; keyText: string } {
  const nested = /^sh\(wpkh\((.*)\)\)$/.exec(body);
  if (nested) return { kind: 'sh-wpkh', keyText: nested[1]! };
  const top = /^(pkh|wpkh|tr)\((.*)\)$/.exec(body);
  if (top) {
    const kind = top[1] as DescriptorKind;
    if (kind === 'tr' && /[,{]/.test(top[2]!)) throw invalidWallet('tr() with a script tree is not supported: key-path tr(KEY) only');
    if (/[()]/.test(top[2]!)) throw invalidWallet(`${kind}() takes one key expression`);
    return { kind, keyText: top[2]! };
  }
  const name = /^([a-z]+)\(/.exec(body)?.[1];
  throw invalidWallet(
    name
      ? `unsupported descriptor ${name}(): a wallet here is pkh(KEY), sh(wpkh(KEY)), wpkh(KEY) or tr(KEY) with one extended public key`
      : 'not a descriptor or an extended public key',
  );
}

function parseDescriptor(params: NetworkParams, text: string): WalletDescriptor {
  const split = verifyChecksum(text);
  if (!split.ok) throw invalidWallet(split.reason);
  const { kind, keyText } = splitScript(split.body);
  if (SEGWIT_KINDS.has(kind) && !params.features.segwit) throw invalidWallet(`${params.name} has no segwit: ${wrap(kind, 'KEY')} cannot pay to it; use pkh(KEY)`);
  const key = parseWalletKey(params, keyText);
  return { kind, key: key.key, origin: key.origin, chains: key.chains, descriptor: normalised(params, kind, key.key, key.origin, key.pathText) };
}

function parsePlainKey(params: NetworkParams, text: string): WalletDescriptor {
  const key = decodeExtendedKey(params, text);
  const kind = key.version.script;
  return { kind, key, origin: null, chains: [[0], [1]], descriptor: normalised(params, kind, key, null, '<0;1>/*') };
}

/**
 * Reads a wallet for `params`' network: a descriptor (anything with a '(') or a plain extended public key.
 * InvalidArgumentError (field `xpub`) saying what is wrong: malformed, wrong checksum, another network's key, a
 * private key, a form that is not a ranged single-key wallet.
 */
export function parseWalletDescriptor(params: NetworkParams, text: string): WalletDescriptor {
  if (text.length === 0) throw invalidWallet('empty: give an extended public key or an output descriptor');
  if (text.length > MAX_WALLET_TEXT) throw invalidWallet(`too long for a descriptor (more than ${MAX_WALLET_TEXT} characters)`);
  return text.includes('(') ? parseDescriptor(params, text) : parsePlainKey(params, text);
}
