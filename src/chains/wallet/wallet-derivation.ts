/**
 * The output scripts of a wallet descriptor's chains: public (unhardened) BIP32 derivation by @scure/bip32, then the
 * descriptor's script around each child key (BIP381 pkh, BIP382 wpkh and sh(wpkh), BIP386/BIP86 key-path tr).
 */
import type { HDKey } from '@scure/bip32';
import { hash160 } from '../hash.js';
import { p2pkhScript, p2shScript } from '../address/base58-address.js';
import { witnessScript } from '../address/segwit-address.js';
import { taprootOutputKey } from './taproot.js';
import type { DescriptorKind, WalletDescriptor } from './wallet-descriptor.js';

/** The script a descriptor of `kind` puts around a compressed public key. */
export function keyScript(kind: DescriptorKind, publicKey: Uint8Array): Uint8Array {
  switch (kind) {
    case 'pkh':
      return p2pkhScript(hash160(publicKey));
    case 'wpkh':
      return witnessScript(0, hash160(publicKey));
    case 'sh-wpkh':
      return p2shScript(hash160(witnessScript(0, hash160(publicKey))));
    case 'tr':
      return witnessScript(1, taprootOutputKey(publicKey.subarray(1)));
  }
}

/** One chain of a wallet: the node its addresses are children of, derived once. */
export class ChainDerivation {
  private readonly parent: HDKey;
  private readonly prefix: string;

  constructor(private readonly wallet: WalletDescriptor, chain: number) {
    const steps = wallet.chains[chain];
    if (!steps) throw new RangeError(`the wallet has no chain ${chain}`);
    this.parent = steps.reduce((node, step) => node.deriveChild(step), wallet.key.node);
    this.prefix = steps.map((s) => `${s}/`).join('');
  }

  /** The output script at `index` (0 ≤ index < 2^31: unhardened). */
  script(index: number): Uint8Array {
    return keyScript(this.wallet.kind, this.parent.deriveChild(index).publicKey!);
  }

  /** The derivation path of `index` from the key, as the API writes it: `0/5`, `1/2/7`. */
  path(index: number): string {
    return `${this.prefix}${index}`;
  }
}
