/**
 * The KEY of an output descriptor (BIP380 key expressions, BIP389 multipath) as a wallet reads it: an optional origin
 * `[fingerprint/path]`, then either one extended public key with unhardened derivation steps, of which at most one is
 * a multipath `<receive;change>`, ending in `*` when the key is ranged; or one plain public key in hex. Private keys,
 * hardened steps after the key and hardened wildcards are refused with the reason: a watch-only wallet cannot use them.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { fromHex, toHex } from '../hash.js';
import type { NetworkParams } from '../network-params.js';
import { decodeExtendedKey, encodeExtendedKey, invalidWallet, type ExtendedPublicKey } from './extended-key.js';

const HARDENED = 0x80000000;

export interface KeyOrigin {
  /** 8 lower-case hex digits. */
  readonly fingerprint: string;
  /** Child numbers as BIP32 writes them: hardened ones have bit 31 set. */
  readonly path: readonly number[];
}

/** One derivation step after the key: a child number, or the alternatives of a BIP389 multipath step. */
type Step = number | readonly number[];

/**
 * Where a KEY stands, which decides the plain keys it may be (Core's ParseScriptContext): uncompressed keys only
 * outside segwit (top level and sh()), x-only keys only in tr().
 */
export type KeyContext = 'legacy' | 'segwit' | 'taproot';

export interface WalletKey {
  readonly origin: KeyOrigin | null;
  /** The extended public key; null for a plain public key. */
  readonly key: ExtendedPublicKey | null;
  /** A plain public key's bytes (33, 65 uncompressed, or 32 x-only in tr()); null for an extended key. */
  readonly publicKey: Uint8Array | null;
  /**
   * The steps from the key to each chain's parent (ranged) or to the key itself (not ranged), one list per chain:
   * receive first, then change if the key has a multipath step. A plain key: one empty list.
   */
  readonly chains: readonly (readonly number[])[];
  /** Ends in `*`: one key per address index. */
  readonly ranged: boolean;
  /** The normalised path text after the key, `*` included (`0/*`, `<0;1>/*`, `0/5`); empty for none. */
  readonly pathText: string;
}

/** A child number `N`, `Nh` or `N'` (BIP380: `H` is not a hardened marker); null when it is none. */
function childNumber(text: string): { index: number; hardened: boolean } | null {
  const m = /^(\d{1,10})(h|')?$/.exec(text);
  if (!m) return null;
  const index = Number(m[1]);
  if (index >= HARDENED) throw invalidWallet(`derivation index ${m[1]} out of range (at most ${HARDENED - 1})`);
  return { index, hardened: m[2] !== undefined };
}

function showChild(n: number): string {
  return n >= HARDENED ? `${n - HARDENED}h` : String(n);
}

function parseOrigin(text: string): KeyOrigin {
  const parts = text.split('/');
  const fingerprint = parts[0]!;
  if (!/^[0-9a-fA-F]{8}$/.test(fingerprint)) throw invalidWallet(`key origin fingerprint must be 8 hex digits, got '${fingerprint.slice(0, 20)}'`);
  const path = parts.slice(1).map((p) => {
    const child = childNumber(p);
    if (!child) throw invalidWallet(`bad step '${p.slice(0, 20)}' in the key origin (a number, hardened with h or ')`);
    return child.hardened ? child.index + HARDENED : child.index;
  });
  return { fingerprint: fingerprint.toLowerCase(), path };
}

/**
 * A plain public key in hex, checked as Core does (a point on the curve, no hybrid encoding, uncompressed only
 * outside segwit, x-only only in tr()); null when `text` is not hex of a key's length.
 */
function plainKey(text: string, context: KeyContext): Uint8Array | null {
  if (!/^(?:[0-9a-fA-F]{64}|[0-9a-fA-F]{66}|[0-9a-fA-F]{130})$/.test(text)) return null;
  const bytes = fromHex(text);
  if (bytes.length === 32) {
    if (context !== 'taproot') throw invalidWallet(`an x-only public key (32 bytes) is only valid in tr(): '${text.slice(0, 16)}…'`);
    // An x-only key is the even point of that x (BIP340): it must lie on the curve.
    if (!validPoint(Uint8Array.of(0x02, ...bytes))) throw invalidWallet(`public key '${text.slice(0, 16)}…' is not a point on the curve`);
    return bytes;
  }
  if (bytes.length === 65 && bytes[0] !== 0x04) throw invalidWallet(`public key '${text.slice(0, 16)}…' is hybrid or malformed (65 bytes not starting with 04)`);
  if (bytes.length === 33 && bytes[0] !== 0x02 && bytes[0] !== 0x03) throw invalidWallet(`public key '${text.slice(0, 16)}…' does not start with 02 or 03`);
  if (!validPoint(bytes)) throw invalidWallet(`public key '${text.slice(0, 16)}…' is not a point on the curve`);
  if (bytes.length === 65 && context !== 'legacy') throw invalidWallet('uncompressed public keys are not allowed in segwit or taproot scripts (wpkh, wsh, tr)');
  return bytes;
}

function validPoint(bytes: Uint8Array): boolean {
  try {
    secp256k1.Point.fromBytes(bytes).assertValidity();
    return true;
  } catch {
    return false;
  }
}

function parseStep(text: string): Step {
  if (text.startsWith('<')) {
    if (!text.endsWith('>')) throw invalidWallet(`multipath step '${text.slice(0, 30)}' has no closing '>'`);
    const alternatives = text.slice(1, -1).split(';').map((a) => {
      const child = childNumber(a);
      if (!child) throw invalidWallet(`bad index '${a.slice(0, 20)}' in multipath step '${text.slice(0, 30)}'`);
      if (child.hardened) throw invalidWallet('hardened derivation after an extended public key needs the private key');
      return child.index;
    });
    if (alternatives.length !== 2) {
      throw invalidWallet(`a multipath step here names two chains, receive and change (<0;1>); '${text.slice(0, 30)}' names ${alternatives.length}`);
    }
    if (alternatives[0] === alternatives[1]) throw invalidWallet(`multipath step '${text}' names the same chain twice`);
    return alternatives;
  }
  if (text === '*' || text === '*h' || text === "*'") throw invalidWallet("'*' can only be the last derivation step");
  const child = childNumber(text);
  if (!child) throw invalidWallet(`bad derivation step '${text.slice(0, 20)}' (a number, '*' or <receive;change>)`);
  if (child.hardened) throw invalidWallet('hardened derivation after an extended public key needs the private key; give the key at the last hardened step');
  return child.index;
}

/** Parses one KEY for the network; InvalidArgumentError (field `xpub`) naming what is wrong. */
export function parseWalletKey(params: NetworkParams, text: string, context: KeyContext = 'legacy'): WalletKey {
  let origin: KeyOrigin | null = null;
  let rest = text;
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close < 0) throw invalidWallet("key origin '[' has no closing ']'");
    origin = parseOrigin(rest.slice(1, close));
    rest = rest.slice(close + 1);
  } else if (rest.includes(']')) {
    throw invalidWallet("key origin ']' without its opening '['");
  }
  const [keyText = '', ...stepTexts] = rest.split('/');
  if (keyText === '') throw invalidWallet('the descriptor has no key');
  const publicKey = plainKey(keyText, context);
  if (publicKey) {
    if (stepTexts.length > 0) throw invalidWallet('a plain public key takes no derivation steps (only extended keys derive)');
    return { origin, key: null, publicKey, chains: [[]], ranged: false, pathText: '' };
  }
  // A WIF private key is refused there by name (wif.ts).
  const key = decodeExtendedKey(params, keyText);
  const last = stepTexts[stepTexts.length - 1];
  if (last === '*h' || last === "*'") throw invalidWallet("hardened wildcard (*h) needs the private key: end the path with '*'");
  const ranged = last === '*';
  const steps = (ranged ? stepTexts.slice(0, -1) : stepTexts).map(parseStep);
  if (steps.filter((s) => typeof s !== 'number').length > 1) throw invalidWallet('at most one multipath step <receive;change> per key');
  const multipath = steps.find((s): s is readonly number[] => typeof s !== 'number');
  const chainOf = (alternative: number): number[] => steps.map((s) => (typeof s === 'number' ? s : s[alternative]!));
  const chains = multipath ? [chainOf(0), chainOf(1)] : [chainOf(0)];
  const pathText = [...steps.map((s) => (typeof s === 'number' ? String(s) : `<${s.join(';')}>`)), ...(ranged ? ['*'] : [])].join('/');
  return { origin, key, publicKey: null, chains, ranged, pathText };
}

/** The origin as normalised descriptors write it: lower-case fingerprint, `h` for hardened steps. */
export function originText(origin: KeyOrigin | null): string {
  if (!origin) return '';
  return `[${[origin.fingerprint, ...origin.path.map(showChild)].join('/')}]`;
}

/** The KEY as normalised descriptors write it: origin, the network's own key version (or lower-case hex), its path. */
export function keyText(params: NetworkParams, key: WalletKey): string {
  const body = key.key ? encodeExtendedKey(key.key.node, params.extendedKeys[0]!) : toHex(key.publicKey!);
  return `${originText(key.origin)}${body}${key.pathText === '' ? '' : `/${key.pathText}`}`;
}
