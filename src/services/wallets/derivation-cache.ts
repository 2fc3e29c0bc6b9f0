/**
 * Derived scripts per wallet, kept between requests: deriving is the expensive part of a wallet read (one elliptic
 * curve multiplication per address, docs/benchmarks.md "Wallets"), the store lookups are not. Bounded by the number
 * of scripts held (least recently used wallets go first), in memory only: nothing asked is ever written anywhere.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { ChainDerivation } from '../../chains/wallet/wallet-derivation.js';
import type { WalletDescriptor } from '../../chains/wallet/wallet-descriptor.js';

/**
 * Key derivations between two yields to the event loop: a large wallet's first read must not stall other requests.
 * 64 single-key addresses, 12 addresses of a 3-of-5 wallet, 3 of a 20-key one.
 */
const DERIVE_SLICE = 64;
/** About 100 bytes a script with its array slot: 200,000 scripts is some 20 MB. */
export const DEFAULT_MAX_SCRIPTS = 200_000;

/** What a gap scan and the wallet reads need of a wallet: its chains of scripts, their paths, the last scan's extent. */
export interface WalletChains {
  /** The wallet's one spelling (normalised descriptor). */
  readonly descriptor: string;
  readonly chains: number;
  /**
   * Scripts per address index: combo()'s forms, 1 for every other form. A chain's scripts are positions: address
   * index × width + form (so for every form but combo a position is the index).
   */
  readonly width: number;
  /** Positions per chain: width for a descriptor without `*` (one index), unbounded otherwise. */
  readonly chainLength: number;
  /** The form of an index handed out as the next address (combo: its P2PKH; 0 otherwise). */
  readonly addressForm: number;
  /** Key derivations per address index: the ranged keys (a k-of-n wallet derives n), 0 for a descriptor without `*`. */
  readonly derivationsPerIndex: number;
  /** Per chain, the last used index the previous scan found (-1: none); the scan updates it. */
  readonly lastUsed: number[];
  /** The scripts of `chain` from position `from` (inclusive) to `to` (exclusive). */
  range(chain: number, from: number, to: number): Promise<Uint8Array[]>;
  /** A script `range` has given already. */
  script(chain: number, index: number): Uint8Array;
  /** null where nothing is derived (plain keys, addr(), raw()). */
  path(chain: number, index: number): string | null;
}

/** One wallet's chains as derived so far, and where the last scan found their last used address. */
export class WalletKeys implements WalletChains {
  private readonly derivations: ChainDerivation[];
  private readonly scripts: Uint8Array[][];
  /** The last used index per chain at the last scan (-1: none): the next scan starts with everything up to it. */
  readonly lastUsed: number[];
  private extending: Promise<void> | null = null;

  constructor(readonly wallet: WalletDescriptor, private readonly onGrow: (added: number) => void) {
    this.derivations = wallet.chains.map((_, chain) => new ChainDerivation(wallet, chain));
    this.scripts = wallet.chains.map(() => []);
    this.lastUsed = wallet.chains.map(() => -1);
  }

  get descriptor(): string {
    return this.wallet.descriptor;
  }

  get chains(): number {
    return this.derivations.length;
  }

  get width(): number {
    return this.wallet.width;
  }

  get chainLength(): number {
    return this.derivations[0]!.size;
  }

  get addressForm(): number {
    return this.wallet.addressForm;
  }

  get derivationsPerIndex(): number {
    return this.wallet.keys.filter((k) => k.ranged).length;
  }

  get size(): number {
    return this.scripts.reduce((sum, s) => sum + s.length, 0);
  }

  /** Deriving what is missing. */
  async range(chain: number, from: number, to: number): Promise<Uint8Array[]> {
    while (this.scripts[chain]!.length < to) {
      if (this.extending) await this.extending;
      else {
        this.extending = this.extend(chain, to).finally(() => (this.extending = null));
        await this.extending;
      }
    }
    return this.scripts[chain]!.slice(from, to);
  }

  script(chain: number, index: number): Uint8Array {
    const script = this.scripts[chain]![index];
    if (!script) throw new RangeError(`script ${chain}/${index} not derived yet`);
    return script;
  }

  path(chain: number, index: number): string | null {
    return this.derivations[chain]!.path(index);
  }

  private async extend(chain: number, to: number): Promise<void> {
    const list = this.scripts[chain]!;
    const derivation = this.derivations[chain]!;
    // Whole indexes per slice (combo's forms share one derivation), as many as DERIVE_SLICE derivations allow.
    const slice = Math.max(1, Math.floor(DERIVE_SLICE / Math.max(1, this.derivationsPerIndex))) * this.width;
    while (list.length < to) {
      const end = Math.min(to, list.length + slice);
      const start = list.length;
      for (let i = start; i < end; i++) list.push(derivation.script(i));
      this.onGrow(end - start);
      if (list.length < to) await yieldToLoop();
    }
  }
}

/** Least recently used wallets are forgotten first once more than `maxScripts` scripts are held. */
export class DerivationCache {
  private readonly entries = new Map<string, WalletKeys>();
  private held = 0;

  constructor(private readonly maxScripts = DEFAULT_MAX_SCRIPTS) {}

  /** The wallet's keys under `id` (its network and normalised descriptor), made on first use. */
  get(id: string, wallet: WalletDescriptor): WalletKeys {
    let keys = this.entries.get(id);
    if (keys) this.entries.delete(id);
    else {
      const made: WalletKeys = new WalletKeys(wallet, (added) => this.grew(id, made, added));
      keys = made;
    }
    this.entries.set(id, keys);
    return keys;
  }

  get scripts(): number {
    return this.held;
  }

  get wallets(): number {
    return this.entries.size;
  }

  /** Counts what a held wallet derived and forgets the least recently used others while over the bound. */
  private grew(id: string, keys: WalletKeys, added: number): void {
    // Forgotten meanwhile (a request still holds it): no longer counted.
    if (this.entries.get(id) !== keys) return;
    this.held += added;
    for (const [other, otherKeys] of this.entries) {
      if (this.held <= this.maxScripts) break;
      if (other === id) continue;
      this.entries.delete(other);
      this.held -= otherKeys.size;
    }
  }
}
