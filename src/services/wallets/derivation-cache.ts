/**
 * Derived scripts per wallet, kept between requests (wallet-keys.ts): the store lookups of a wallet read are cheap,
 * deriving is not. Bounded in bytes (`[wallets] cache_mb`): each wallet counts its scripts' arrays and a fixed
 * overhead (and one per key), so a flood of tiny wallets is bounded as surely as a few large ones; least recently used
 * wallets go first. In memory only: nothing asked is ever written anywhere.
 */
import type { WalletDescriptor } from '../../chains/wallet/wallet-descriptor.js';
import type { DerivationPool } from './derivation-pool.js';
import { WalletKeys } from './wallet-keys.js';

export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

/** Least recently used wallets are forgotten first once more than `maxBytes` are held (the one growing stays). */
export class DerivationCache {
  private readonly entries = new Map<string, WalletKeys>();
  private held = 0;

  constructor(
    private readonly pool: DerivationPool,
    private readonly maxBytes = DEFAULT_CACHE_BYTES,
  ) {}

  /** The wallet's keys under `id` (its network and normalised descriptor), made on first use. */
  get(id: string, wallet: WalletDescriptor): WalletKeys {
    let keys = this.entries.get(id);
    if (keys) this.entries.delete(id);
    else {
      const made: WalletKeys = new WalletKeys(wallet, this.pool, (added) => this.grew(id, made, added));
      keys = made;
      this.held += made.bytes;
    }
    this.entries.set(id, keys);
    this.evictFor(id);
    return keys;
  }

  /** Bytes held now, as counted (the bound's measure). */
  get bytes(): number {
    return this.held;
  }

  get wallets(): number {
    return this.entries.size;
  }

  /** Counts what a held wallet added and forgets the least recently used others while over the bound. */
  private grew(id: string, keys: WalletKeys, added: number): void {
    // Forgotten meanwhile (a request still holds it): no longer counted.
    if (this.entries.get(id) !== keys) return;
    this.held += added;
    this.evictFor(id);
  }

  private evictFor(id: string): void {
    for (const [other, otherKeys] of this.entries) {
      if (this.held <= this.maxBytes) break;
      if (other === id) continue;
      this.entries.delete(other);
      this.held -= otherKeys.bytes;
    }
  }
}
