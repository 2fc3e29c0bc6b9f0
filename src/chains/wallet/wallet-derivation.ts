/**
 * The output scripts of a wallet descriptor's chains: public (unhardened) BIP32 derivation by @scure/bip32 of every
 * key at the same index (BIP383: multisig keys change in lockstep), then the descriptor's script around them
 * (descriptor-scripts.ts). A chain is a list of scripts: `width` per address index (combo()'s forms, else one), so
 * position `slot` is index ⌊slot / width⌋, form slot mod width. ChainDerivation does it all on the calling thread;
 * the wallet service derives the same scripts in jobs on worker threads (services/wallets/derivation-jobs.ts) from
 * the pieces exported here (formScript, keyPath, positionPath), so both read one definition.
 */
import type { HDKey } from '@scure/bip32';
import { COMBO_FORMS, keyScript, multiScript, type DescriptorKind, type MultiKind, type SingleKind } from './descriptor-scripts.js';
import type { WalletDescriptor } from './wallet-descriptor.js';

/** What makes an index's scripts from its keys: plain data (a worker thread is handed it as it is). */
export interface ScriptShape {
  readonly kind: DescriptorKind;
  readonly multisig: { readonly threshold: number; readonly sorted: boolean } | null;
  /** addr() and raw(): the one script. */
  readonly script: Uint8Array | null;
  readonly width: number;
}

/** Form `form` (0 ≤ form < width) of the index whose keys are `keys` (descriptor order). */
export function formScript(shape: ScriptShape, keys: readonly Uint8Array[], form: number): Uint8Array {
  if (shape.script) return shape.script;
  if (shape.multisig) return multiScript(shape.kind as MultiKind, shape.multisig.threshold, keys, shape.multisig.sorted);
  const kind = shape.kind === 'combo' ? COMBO_FORMS[form]! : (shape.kind as SingleKind);
  return keyScript(kind, keys[0]!);
}

/** One key's path on one chain, as paths are written: text before the index (ranged) or the whole path; null: a plain key. */
export interface KeyPath {
  readonly text: string | null;
  readonly ranged: boolean;
}

/** A key's path on a chain from its steps there: `extended` false for a plain key. */
export function keyPath(extended: boolean, ranged: boolean, steps: readonly number[]): KeyPath {
  if (!extended) return { text: null, ranged: false };
  return ranged ? { text: steps.map((s) => `${s}/`).join(''), ranged: true } : { text: steps.join('/'), ranged: false };
}

/**
 * The derivation path of position `slot` from the key, as the API writes it: `0/5`, `1/2/7`. Keys whose paths
 * differ: each key's in descriptor order, comma-separated (empty for a plain key). null where nothing is derived
 * (plain keys, addr(), raw(), an extended key used as it is).
 */
export function positionPath(paths: readonly KeyPath[], width: number, slot: number): string | null {
  const index = Math.floor(slot / width);
  const texts = paths.map((p) => (p.text === null ? null : p.ranged ? `${p.text}${index}` : p.text));
  const derived = [...new Set(texts.filter((p): p is string => p !== null))];
  if (derived.length === 0 || (derived.length === 1 && derived[0] === '')) return null;
  return derived.length === 1 ? derived[0]! : texts.map((p) => p ?? '').join(',');
}

/** One key on one chain: its parent node when ranged, else its one public key. */
interface KeySource {
  readonly parent: HDKey | null;
  readonly fixed: Uint8Array | null;
}

export class ChainDerivation {
  private readonly sources: KeySource[];
  private readonly paths: KeyPath[];
  /** The keys of the last index derived: combo()'s forms of one index share them. */
  private lastIndex = -1;
  private lastKeys: Uint8Array[] = [];

  constructor(private readonly wallet: WalletDescriptor, chain: number) {
    const steps = wallet.chains[chain];
    if (!steps) throw new RangeError(`the wallet has no chain ${chain}`);
    this.paths = wallet.keys.map((key, i) => keyPath(key.key !== null, key.ranged, steps[i]!));
    this.sources = wallet.keys.map((key, i) => {
      if (!key.key) return { parent: null, fixed: key.publicKey };
      const node = steps[i]!.reduce((n, step) => n.deriveChild(step), key.key.node);
      return key.ranged ? { parent: node, fixed: null } : { parent: null, fixed: node.publicKey! };
    });
  }

  /** Scripts per chain: unbounded for a ranged wallet (up to 2^31 indexes), else one index's. */
  get size(): number {
    return this.wallet.ranged ? 0x80000000 * this.wallet.width : this.wallet.width;
  }

  /** The output script at position `slot` of the chain (see the file comment). */
  script(slot: number): Uint8Array {
    const w = this.wallet;
    if (!Number.isInteger(slot) || slot < 0 || slot >= this.size) throw new RangeError(`no script ${slot} in this chain`);
    if (w.script) return w.script;
    return formScript(w, this.keysAt(Math.floor(slot / w.width)), slot % w.width);
  }

  /** The path of position `slot` (positionPath). */
  path(slot: number): string | null {
    return positionPath(this.paths, this.wallet.width, slot);
  }

  private keysAt(index: number): Uint8Array[] {
    if (index !== this.lastIndex) {
      this.lastKeys = this.sources.map((s) => (s.parent ? s.parent.deriveChild(index).publicKey! : s.fixed!));
      this.lastIndex = index;
    }
    return this.lastKeys;
  }
}
