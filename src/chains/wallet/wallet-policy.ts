/**
 * A wallet's policy as people read it: the script form (`wsh(sortedmulti)`), k of n, and each key with its origin
 * (the fingerprint of the key it was derived from and the path to it) and its path to the addresses. What the v3
 * summary's `script_form`, `threshold` and `keys` and the explorer's wallet header show.
 */
import type { NetworkParams } from '../network-params.js';
import type { DescriptorKind } from './descriptor-scripts.js';
import { keyText, originText, type WalletKey } from './key-expression.js';

export interface PolicyKey {
  /** The key as the normalised descriptor writes it, without origin and path: an extended key or hex. */
  readonly key: string;
  /** 8 hex digits; null without an origin. */
  readonly fingerprint: string | null;
  /** The origin's path, `h` for hardened (`48h/1h/0h/2h`); null without an origin, empty for an origin of the master key. */
  readonly originPath: string | null;
  /** The steps after the key (`<0;1>/*`); null for a plain public key. */
  readonly path: string | null;
}

export interface WalletPolicy {
  /** `pkh`, `sh(wpkh)`, `wsh(sortedmulti)`, `sh(wsh(multi))`, `combo`, `addr`, `raw`, … */
  readonly form: string;
  /** k of a multisig; null otherwise (n is the number of keys). */
  readonly threshold: number | null;
  readonly keys: readonly PolicyKey[];
}

const FORM: Record<DescriptorKind, string> = {
  pk: 'pk', pkh: 'pkh', 'sh-wpkh': 'sh(wpkh)', wpkh: 'wpkh', tr: 'tr', combo: 'combo', addr: 'addr', raw: 'raw',
  multi: 'multi', 'sh-multi': 'sh(multi)', 'wsh-multi': 'wsh(multi)', 'sh-wsh-multi': 'sh(wsh(multi))',
};

function policyKey(params: NetworkParams, key: WalletKey): PolicyKey {
  const origin = originText(key.origin);
  const bare = keyText(params, { ...key, origin: null, pathText: '' });
  return {
    key: bare,
    fingerprint: key.origin?.fingerprint ?? null,
    originPath: key.origin ? origin.slice(10, -1) : null,
    path: key.key ? key.pathText : null,
  };
}

export function policyOf(params: NetworkParams, kind: DescriptorKind, keys: readonly WalletKey[], multisig: { threshold: number; sorted: boolean } | null): WalletPolicy {
  const form = multisig?.sorted ? FORM[kind].replace('multi', 'sortedmulti') : FORM[kind];
  return { form, threshold: multisig?.threshold ?? null, keys: keys.map((k) => policyKey(params, k)) };
}
