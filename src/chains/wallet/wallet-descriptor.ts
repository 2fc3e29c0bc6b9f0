/**
 * What a wallet route accepts, read into one shape (docs/wallets.md, "Accepted forms"): an output descriptor —
 * pk/pkh/wpkh/sh(wpkh)/tr(KEY) (BIP381, 382, 386), multi/sortedmulti(k,KEY,…) bare, in sh(), wsh() or sh(wsh())
 * (BIP383), combo(KEY) (BIP384), addr(ADDRESS) and raw(HEX) (BIP385) — its BIP380 checksum verified when given; or a
 * plain extended public key whose version implies the script (SLIP-132) and whose chains are 0 (receive) and 1
 * (change). All come out as a normalised descriptor, so one wallet has one spelling (and one cache entry).
 */
import type { NetworkParams } from '../network-params.js';
import { verifyChecksum, descriptorChecksum } from './descriptor-checksum.js';
import { comboWidth, type DescriptorKind, type MultiKind, type SingleKind } from './descriptor-scripts.js';
import { readCall } from './descriptor-syntax.js';
import { decodeExtendedKey, invalidWallet } from './extended-key.js';
import { parseAddr, parseRaw } from './fixed-descriptors.js';
import { keyText, parseWalletKey, type KeyContext, type WalletKey } from './key-expression.js';
import { parseMultisig } from './multisig-descriptor.js';
import { policyOf, type WalletPolicy } from './wallet-policy.js';

export type { DescriptorKind } from './descriptor-scripts.js';

export interface WalletDescriptor {
  readonly kind: DescriptorKind;
  /** The keys in the order written; none for addr() and raw(). */
  readonly keys: readonly WalletKey[];
  /** multi() and sortedmulti(): the threshold k, and whether each script sorts its keys. */
  readonly multisig: { readonly threshold: number; readonly sorted: boolean } | null;
  /** addr() and raw(): the one script. */
  readonly script: Uint8Array | null;
  /**
   * Per chain (receive first, then change when a key has a multipath step), per key: the steps from that key to the
   * chain's parent (or to the key itself when it is not ranged).
   */
  readonly chains: readonly (readonly (readonly number[])[])[];
  /** Some key ends in `*`: a script per index. Otherwise every chain is one index. */
  readonly ranged: boolean;
  /** Scripts per index: combo()'s forms; 1 for every other form. */
  readonly width: number;
  /** Which of an index's scripts is its address to hand out: combo()'s P2PKH; 0 otherwise. */
  readonly addressForm: number;
  /** k-of-n, the script form and each key with its origin, as the summary and the explorer show them. */
  readonly policy: WalletPolicy;
  /** Normalised: the network's own key version, `h` for hardened origin steps, multipath kept, with its checksum. */
  readonly descriptor: string;
}

/** Longer input is no descriptor of the accepted forms: 20 keys with origins and multipath are about 3,000 characters. */
export const MAX_WALLET_TEXT = 4000;

const SEGWIT_KINDS: ReadonlySet<DescriptorKind> = new Set(['sh-wpkh', 'wpkh', 'tr', 'wsh-multi', 'sh-wsh-multi']);
const SINGLE: Record<string, SingleKind> = { pk: 'pk', pkh: 'pkh', wpkh: 'wpkh', tr: 'tr' };
const MULTI_NAMES: ReadonlySet<string> = new Set(['multi', 'sortedmulti']);

interface Parts {
  readonly kind: DescriptorKind;
  readonly keys: readonly WalletKey[];
  readonly multisig: { readonly threshold: number; readonly sorted: boolean } | null;
  readonly script: Uint8Array | null;
  /** The normalised descriptor without checksum. */
  readonly body: string;
}

/** A single-key form around its one KEY. */
function single(params: NetworkParams, kind: SingleKind | 'combo', key: WalletKey): Parts {
  const body = kind === 'sh-wpkh' ? `sh(wpkh(${keyText(params, key)}))` : `${kind}(${keyText(params, key)})`;
  return { kind, keys: [key], multisig: null, script: null, body };
}

function keyOf(params: NetworkParams, kind: SingleKind | 'combo', text: string, context: KeyContext): Parts {
  if (/[(),{]/.test(text)) {
    if (kind === 'tr') throw invalidWallet('tr() with a script tree is not supported: key-path tr(KEY) only');
    throw invalidWallet(`${kind === 'sh-wpkh' ? 'sh(wpkh' : kind}() takes one key expression`);
  }
  return single(params, kind, parseWalletKey(params, text, context));
}

function multiOf(params: NetworkParams, kind: MultiKind, name: string, inner: string): Parts {
  const m = parseMultisig(params, kind, name === 'sortedmulti', inner);
  const call = `${name}(${[String(m.threshold), ...m.keys.map((k) => keyText(params, k))].join(',')})`;
  const body = kind === 'multi' ? call : kind === 'sh-multi' ? `sh(${call})` : kind === 'wsh-multi' ? `wsh(${call})` : `sh(wsh(${call}))`;
  return { kind, keys: m.keys, multisig: { threshold: m.threshold, sorted: m.sorted }, script: null, body };
}

/** sh(…): wpkh, multi/sortedmulti, or wsh(multi/sortedmulti). */
function shOf(params: NetworkParams, inner: string): Parts {
  const call = readCall(inner);
  if (call?.name === 'wpkh') return keyOf(params, 'sh-wpkh', call.inner, 'segwit');
  if (call && MULTI_NAMES.has(call.name)) return multiOf(params, 'sh-multi', call.name, call.inner);
  if (call?.name === 'wsh') {
    const script = readCall(call.inner);
    if (script && MULTI_NAMES.has(script.name)) return multiOf(params, 'sh-wsh-multi', script.name, script.inner);
    throw invalidWallet('sh(wsh(…)) takes multi() or sortedmulti() here (miniscript is not supported)');
  }
  throw invalidWallet(`sh() takes wpkh(), wsh(), multi() or sortedmulti() here${call ? `, not ${call.name}()` : ''}`);
}

function partsOf(params: NetworkParams, body: string): Parts {
  const call = readCall(body);
  if (!call) throw invalidWallet('not a descriptor or an extended public key');
  const { name, inner } = call;
  const single = SINGLE[name];
  if (single) return keyOf(params, single, inner, single === 'tr' ? 'taproot' : single === 'wpkh' ? 'segwit' : 'legacy');
  if (name === 'combo') return keyOf(params, 'combo', inner, 'legacy');
  if (MULTI_NAMES.has(name)) return multiOf(params, 'multi', name, inner);
  if (name === 'sh') return shOf(params, inner);
  if (name === 'wsh') {
    const script = readCall(inner);
    if (script && MULTI_NAMES.has(script.name)) return multiOf(params, 'wsh-multi', script.name, script.inner);
    throw invalidWallet(`wsh() takes multi() or sortedmulti() here${script ? `, not ${script.name}()` : ''} (miniscript is not supported)`);
  }
  if (name === 'addr' || name === 'raw') {
    const fixed = name === 'addr' ? parseAddr(params, inner) : parseRaw(inner);
    return { kind: name, keys: [], multisig: null, script: fixed.script, body: `${name}(${fixed.text})` };
  }
  throw invalidWallet(
    `unsupported descriptor ${name}(): a wallet here is pk, pkh, wpkh, sh(wpkh), tr or combo(KEY), multi or sortedmulti(k,KEY,…) ` +
    'bare or in sh(), wsh() or sh(wsh()), addr(ADDRESS) or raw(HEX)',
  );
}

/** The descriptor's shape around its keys. */
function assemble(params: NetworkParams, parts: Parts): WalletDescriptor {
  const { kind, keys } = parts;
  const policy = policyOf(params, kind, keys, parts.multisig);
  if (SEGWIT_KINDS.has(kind) && !params.features.segwit) {
    throw invalidWallet(`${params.name} has no segwit: ${policy.form}() cannot pay to it; use pkh(), sh(multi()) or sh(sortedmulti())`);
  }
  const chainCount = keys.some((k) => k.chains.length === 2) ? 2 : 1;
  const chains = Array.from({ length: chainCount }, (_, chain) => keys.map((k) => k.chains[k.chains.length === 2 ? chain : 0]!));
  const width = kind === 'combo' ? comboWidth(keys[0]!.publicKey?.length !== 65, params.features.segwit) : 1;
  return {
    kind,
    keys,
    multisig: parts.multisig,
    script: parts.script,
    chains,
    ranged: keys.some((k) => k.ranged),
    width,
    addressForm: kind === 'combo' ? 1 : 0,
    policy,
    descriptor: `${parts.body}#${descriptorChecksum(parts.body)!}`,
  };
}

function parseDescriptor(params: NetworkParams, text: string): WalletDescriptor {
  const split = verifyChecksum(text);
  if (!split.ok) throw invalidWallet(split.reason);
  return assemble(params, partsOf(params, split.body));
}

function parsePlainKey(params: NetworkParams, text: string): WalletDescriptor {
  if (/^[0-9a-fA-F]{64,130}$/.test(text)) throw invalidWallet('a public key alone is no wallet: give a descriptor around it, such as pkh(KEY), wpkh(KEY) or combo(KEY)');
  const key = decodeExtendedKey(params, text);
  const walletKey: WalletKey = { origin: null, key, publicKey: null, chains: [[0], [1]], ranged: true, pathText: '<0;1>/*' };
  return assemble(params, single(params, key.version.script, walletKey));
}

/**
 * Reads a wallet for `params`' network: a descriptor (anything with a '(') or a plain extended public key.
 * InvalidArgumentError (field `xpub`) saying what is wrong: malformed, wrong checksum, another network's key, a
 * private key, a form or a size the scripts do not allow.
 */
export function parseWalletDescriptor(params: NetworkParams, text: string): WalletDescriptor {
  if (text.length === 0) throw invalidWallet('empty: give an extended public key or an output descriptor');
  if (text.length > MAX_WALLET_TEXT) throw invalidWallet(`too long for a descriptor (more than ${MAX_WALLET_TEXT} characters)`);
  return text.includes('(') ? parseDescriptor(params, text) : parsePlainKey(params, text);
}
