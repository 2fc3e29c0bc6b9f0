/**
 * `multi(k,KEY_1,…,KEY_n)` and `sortedmulti(…)` (BIP383) read for a wallet, with the limits Bitcoin Core's
 * descriptor.cpp applies where each may stand: 1 ≤ k ≤ n ≤ 20 (MAX_PUBKEYS_PER_MULTISIG); bare at most 3 keys (the
 * standardness limit of bare multisig); in sh() a redeem script of at most 520 bytes (MAX_SCRIPT_ELEMENT_SIZE: the
 * script is pushed whole in the spending input), so at most 15 compressed keys; in wsh() and sh(wsh()) compressed
 * keys only. Each KEY is read by key-expression.ts; their multipath steps line up (each names receive and change).
 */
import type { NetworkParams } from '../network-params.js';
import type { MultiKind } from './descriptor-scripts.js';
import { splitArguments } from './descriptor-syntax.js';
import { invalidWallet } from './extended-key.js';
import { parseWalletKey, type WalletKey } from './key-expression.js';

export const MAX_MULTISIG_KEYS = 20;
export const MAX_BARE_MULTISIG_KEYS = 3;
/** The largest element a script may push: a P2SH redeem script is one. */
export const MAX_SCRIPT_ELEMENT_SIZE = 520;

export interface Multisig {
  readonly threshold: number;
  readonly sorted: boolean;
  readonly keys: readonly WalletKey[];
}

/** The size of the multisig script itself: OP_k, each key with its push byte, OP_n, OP_CHECKMULTISIG. */
function scriptSize(keys: readonly WalletKey[]): number {
  // An extended key derives 33-byte keys; a plain key is as long as written.
  return keys.reduce((sum, k) => sum + 1 + (k.publicKey?.length ?? 33), 0) + 3;
}

/** Reads the inside of multi(…)/sortedmulti(…) standing as `kind`; InvalidArgumentError naming what is wrong. */
export function parseMultisig(params: NetworkParams, kind: MultiKind, sorted: boolean, inner: string): Multisig {
  const name = sorted ? 'sortedmulti' : 'multi';
  const [thresholdText = '', ...keyTexts] = splitArguments(inner);
  if (!/^\d{1,4}$/.test(thresholdText)) throw invalidWallet(`${name}(): the threshold '${thresholdText.slice(0, 20)}' is not a number: ${name}(k,KEY_1,…,KEY_n)`);
  const threshold = Number(thresholdText);
  if (keyTexts.length === 0) throw invalidWallet(`${name}(): no keys after the threshold`);
  if (keyTexts.length > MAX_MULTISIG_KEYS) throw invalidWallet(`${name}(): ${keyTexts.length} keys; a multisig script takes 1 to ${MAX_MULTISIG_KEYS}`);
  if (threshold < 1) throw invalidWallet(`${name}(): a threshold of ${threshold}; it must be at least 1`);
  if (threshold > keyTexts.length) throw invalidWallet(`${name}(): a threshold of ${threshold} with only ${keyTexts.length} keys (k must be at most n)`);
  if (kind === 'multi' && keyTexts.length > MAX_BARE_MULTISIG_KEYS) {
    throw invalidWallet(`bare ${name}() with ${keyTexts.length} keys: at most ${MAX_BARE_MULTISIG_KEYS} (standardness); use sh(), wsh() or sh(wsh())`);
  }
  const context = kind === 'wsh-multi' || kind === 'sh-wsh-multi' ? 'segwit' : 'legacy';
  const keys = keyTexts.map((text, i) => {
    try {
      return parseWalletKey(params, text, context);
    } catch (error) {
      throw invalidWallet(`${name}() key ${i + 1} of ${keyTexts.length}: ${(error as Error).message}`);
    }
  });
  if (kind === 'sh-multi' && scriptSize(keys) > MAX_SCRIPT_ELEMENT_SIZE) {
    throw invalidWallet(
      `sh(${name}()) with ${keys.length} keys is a ${scriptSize(keys)}-byte redeem script, over P2SH's ${MAX_SCRIPT_ELEMENT_SIZE} bytes ` +
      '(at most 15 compressed keys): use wsh() or sh(wsh()) for more',
    );
  }
  return { threshold, sorted, keys };
}
