/**
 * The KEY of an output descriptor (BIP380 key expressions, BIP389 multipath) as a wallet reads it: an optional origin
 * `[fingerprint/path]`, one extended public key, unhardened derivation steps of which at most one is a multipath
 * `<receive;change>`, and a final `*`. Everything else a KEY may be (single public keys, private keys, hardened steps
 * after the key, hardened wildcards) is refused with the reason: those cannot describe a watch-only wallet.
 */
import { decodeBase58Check } from '../address/base58.js';
import type { NetworkParams } from '../network-params.js';
import { decodeExtendedKey, invalidWallet, type ExtendedPublicKey } from './extended-key.js';

const HARDENED = 0x80000000;

export interface KeyOrigin {
  /** 8 lower-case hex digits. */
  readonly fingerprint: string;
  /** Child numbers as BIP32 writes them: hardened ones have bit 31 set. */
  readonly path: readonly number[];
}

/** One derivation step after the key: a child number, or the alternatives of a BIP389 multipath step. */
type Step = number | readonly number[];

export interface WalletKey {
  readonly origin: KeyOrigin | null;
  readonly key: ExtendedPublicKey;
  /** The steps from the key to each chain's parent, one list per chain: receive first, then change if there is one. */
  readonly chains: readonly (readonly number[])[];
  /** The normalised path text after the key, `*` included (`0/*`, `<0;1>/*`). */
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

/** Why a key that is not an extended public key cannot be a wallet (single keys, WIF private keys). */
function notExtended(text: string): Error | null {
  if (/^(02|03)[0-9a-fA-F]{64}$|^04[0-9a-fA-F]{128}$|^[0-9a-fA-F]{64}$/.test(text)) {
    return invalidWallet('a single public key is one address, not a wallet: give an extended public key with a ranged path (…/*)');
  }
  if (text.length >= 50 && text.length <= 52) {
    // Not base58check (null): decodeExtendedKey says why.
    const bytes = decodeBase58Check(text);
    if (bytes !== null && (bytes.length === 33 || bytes.length === 34)) {
      return invalidWallet('this is a private key (WIF): private keys are never accepted; give an extended public key');
    }
  }
  return null;
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
  const child = childNumber(text);
  if (!child) throw invalidWallet(`bad derivation step '${text.slice(0, 20)}' (a number, '*' or <receive;change>)`);
  if (child.hardened) throw invalidWallet('hardened derivation after an extended public key needs the private key; give the key at the last hardened step');
  return child.index;
}

/** Parses one KEY for the network; InvalidArgumentError (field `xpub`) naming what is wrong. */
export function parseWalletKey(params: NetworkParams, text: string): WalletKey {
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
  const refused = notExtended(keyText);
  if (refused) throw refused;
  const key = decodeExtendedKey(params, keyText);
  const last = stepTexts[stepTexts.length - 1];
  if (last === '*h' || last === "*'") throw invalidWallet("hardened wildcard (*h) needs the private key: end the path with '*'");
  if (last !== '*') throw invalidWallet("the key is not ranged: a wallet's path ends with '*' (e.g. …/0/* or …/<0;1>/*)");
  const steps = stepTexts.slice(0, -1).map(parseStep);
  if (steps.filter((s) => typeof s !== 'number').length > 1) throw invalidWallet('at most one multipath step <receive;change> per key');
  const multipath = steps.find((s): s is readonly number[] => typeof s !== 'number');
  const chainOf = (alternative: number): number[] => steps.map((s) => (typeof s === 'number' ? s : s[alternative]!));
  const chains = multipath ? [chainOf(0), chainOf(1)] : [chainOf(0)];
  const pathText = [...steps.map((s) => (typeof s === 'number' ? String(s) : `<${s.join(';')}>`)), '*'].join('/');
  return { origin, key, chains, pathText };
}

/** The origin as normalised descriptors write it: lower-case fingerprint, `h` for hardened steps. */
export function originText(origin: KeyOrigin | null): string {
  if (!origin) return '';
  return `[${[origin.fingerprint, ...origin.path.map(showChild)].join('/')}]`;
}
