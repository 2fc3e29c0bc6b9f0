/**
 * The output scripts of a wallet descriptor's chains: public (unhardened) BIP32 derivation by @scure/bip32 of every
 * key at the same index (BIP383: multisig keys change in lockstep), then the descriptor's script around them
 * (descriptor-scripts.ts). A chain is a list of scripts: `width` per address index (combo()'s forms, else one), so
 * position `slot` is index ⌊slot / width⌋, form slot mod width.
 */
import type { HDKey } from '@scure/bip32';
import { COMBO_FORMS, keyScript, multiScript, type MultiKind, type SingleKind } from './descriptor-scripts.js';
import type { WalletDescriptor } from './wallet-descriptor.js';

/** One key on one chain: its parent node when ranged, else its one public key. */
interface KeySource {
  readonly parent: HDKey | null;
  readonly fixed: Uint8Array | null;
  /** The path text before the index (`0/`), or the whole path of a key that is not ranged; null: a plain key. */
  readonly prefix: string | null;
}

export class ChainDerivation {
  private readonly sources: KeySource[];
  /** The keys of the last index derived: combo()'s forms of one index share them. */
  private lastIndex = -1;
  private lastKeys: Uint8Array[] = [];

  constructor(private readonly wallet: WalletDescriptor, chain: number) {
    const steps = wallet.chains[chain];
    if (!steps) throw new RangeError(`the wallet has no chain ${chain}`);
    this.sources = wallet.keys.map((key, i) => {
      const path = steps[i]!;
      if (!key.key) return { parent: null, fixed: key.publicKey, prefix: null };
      const node = path.reduce((n, step) => n.deriveChild(step), key.key.node);
      if (key.ranged) return { parent: node, fixed: null, prefix: path.map((s) => `${s}/`).join('') };
      return { parent: null, fixed: node.publicKey!, prefix: path.join('/') };
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
    const keys = this.keysAt(Math.floor(slot / w.width));
    if (w.multisig) return multiScript(w.kind as MultiKind, w.multisig.threshold, keys, w.multisig.sorted);
    const kind = w.kind === 'combo' ? COMBO_FORMS[slot % w.width]! : (w.kind as SingleKind);
    return keyScript(kind, keys[0]!);
  }

  /**
   * The derivation path of position `slot` from the key, as the API writes it: `0/5`, `1/2/7`. Keys whose paths
   * differ: each key's in descriptor order, comma-separated (empty for a plain key). null where nothing is derived
   * (plain keys, addr(), raw(), an extended key used as it is).
   */
  path(slot: number): string | null {
    const index = Math.floor(slot / this.wallet.width);
    const paths = this.sources.map((s) => (s.prefix === null ? null : s.parent ? `${s.prefix}${index}` : s.prefix));
    const derived = [...new Set(paths.filter((p): p is string => p !== null))];
    if (derived.length === 0 || (derived.length === 1 && derived[0] === '')) return null;
    return derived.length === 1 ? derived[0]! : paths.map((p) => p ?? '').join(',');
  }

  private keysAt(index: number): Uint8Array[] {
    if (index !== this.lastIndex) {
      this.lastKeys = this.sources.map((s) => (s.parent ? s.parent.deriveChild(index).publicKey! : s.fixed!));
      this.lastIndex = index;
    }
    return this.lastKeys;
  }
}
