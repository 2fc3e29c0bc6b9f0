/**
 * Derived scripts per wallet, kept between requests: deriving is the expensive part of a wallet read (one elliptic
 * curve multiplication per address, docs/benchmarks.md "Wallets"), the store lookups are not. The derivation itself
 * runs on the pool's threads (derivation-pool.ts), charged to the client that asked (`Charge`). Bounded in bytes
 * (`[wallets] cache_mb`): each wallet counts its scripts (stored back to back, one array per chain) and a fixed
 * overhead, so a flood of tiny wallets is bounded as surely as a few large ones; least recently used wallets go
 * first. In memory only: nothing asked is ever written anywhere.
 */
import type { DescriptorKind, WalletDescriptor } from '../../chains/wallet/wallet-descriptor.js';
import type { DerivationPool, DerivationTicket } from './derivation-pool.js';
import { SCRIPTS_PER_JOB, STEPS_PER_JOB, type ChainNode } from './derivation-jobs.js';

export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
/**
 * What a wallet holds besides its scripts' bytes: the entry, its nodes, paths, arrays and their headers (its descriptor
 * text is counted apart). A one-address wallet weighs about 3.6 KiB in all, heap and array buffers, 704 bytes of it
 * its two chains' first arrays (derivation-cache.test.ts measures it): counted with this it comes to about 4.6 KiB.
 */
export const WALLET_OVERHEAD_BYTES = 3584;
/** A chain's array grows by half again (at least this many scripts), so growing costs few copies. */
const MIN_CAPACITY = 16;

/**
 * Counts `derivations` (addresses or path steps) against the asking client's budget before they run; throws
 * BudgetSpentError when it is spent (what was derived until then stays cached).
 */
export type Charge = (derivations: number) => Promise<void>;

/** What a gap scan and the wallet reads need of a wallet: its chains of scripts, their paths, the last scan's extent. */
export interface WalletChains {
  /** The wallet's one spelling (normalised descriptor). */
  readonly descriptor: string;
  readonly chains: number;
  /** Per chain, the last used index the previous scan found (-1: none); the scan updates it. */
  readonly lastUsed: number[];
  /** The scripts of `chain` from `from` (inclusive) to `to` (exclusive). */
  range(chain: number, from: number, to: number): Promise<Uint8Array[]>;
  /** A script `range` has given already. */
  script(chain: number, index: number): Uint8Array;
  path(chain: number, index: number): string;
}

/** A chain's scripts back to back (`width` bytes each: one wallet has one script type). */
interface ChainScripts {
  bytes: Uint8Array;
  width: number;
  count: number;
}

/**
 * One wallet's chains as derived so far, and where the last scan found their last used address. It keeps of the
 * parsed descriptor only what derivation needs (its key objects weigh more than a small wallet's scripts).
 */
export class WalletKeys {
  readonly descriptor: string;
  private readonly kind: DescriptorKind;
  private readonly root: ChainNode;
  private readonly steps: readonly (readonly number[])[];
  private readonly nodes: (ChainNode | null)[];
  private readonly scripts: ChainScripts[];
  private readonly prefixes: string[];
  /** The last used index per chain at the last scan (-1: none): the next scan starts with everything up to it. */
  readonly lastUsed: number[];
  private extending: Promise<void> | null = null;

  constructor(
    wallet: WalletDescriptor,
    private readonly pool: DerivationPool,
    private readonly onGrow: (bytes: number) => void,
  ) {
    this.descriptor = wallet.descriptor;
    this.kind = wallet.kind;
    this.root = { publicKey: wallet.key.node.publicKey!.slice(), chainCode: wallet.key.node.chainCode!.slice() };
    this.steps = wallet.chains;
    this.nodes = wallet.chains.map(() => null);
    this.scripts = wallet.chains.map(() => ({ bytes: new Uint8Array(0), width: 0, count: 0 }));
    this.prefixes = wallet.chains.map((steps) => steps.map((s) => `${s}/`).join(''));
    this.lastUsed = wallet.chains.map(() => -1);
  }

  get chains(): number {
    return this.scripts.length;
  }

  /** Bytes held: the overhead and every chain's array (its capacity, not only what is filled). */
  get bytes(): number {
    return WALLET_OVERHEAD_BYTES + this.descriptor.length * 2 + this.scripts.reduce((sum, s) => sum + s.bytes.byteLength, 0);
  }

  /** The wallet's chains for one request: what it derives is charged to `charge`. */
  forRequest(charge: Charge): WalletChains {
    return {
      descriptor: this.descriptor,
      chains: this.chains,
      lastUsed: this.lastUsed,
      range: (chain, from, to) => this.range(chain, from, to, charge),
      script: (chain, index) => this.script(chain, index),
      path: (chain, index) => this.path(chain, index),
    };
  }

  /** Deriving what is missing; a request waiting for another's derivation pays nothing, and tries its own if that one failed. */
  async range(chain: number, from: number, to: number, charge: Charge): Promise<Uint8Array[]> {
    while (this.scripts[chain]!.count < to) {
      if (this.extending) {
        await this.extending.catch(() => undefined);
        continue;
      }
      this.extending = this.extend(chain, to, charge).finally(() => (this.extending = null));
      await this.extending;
    }
    const { bytes, width } = this.scripts[chain]!;
    return Array.from({ length: to - from }, (_, i) => bytes.subarray((from + i) * width, (from + i + 1) * width));
  }

  script(chain: number, index: number): Uint8Array {
    const { bytes, width, count } = this.scripts[chain]!;
    if (index >= count) throw new RangeError(`script ${chain}/${index} not derived yet`);
    return bytes.subarray(index * width, (index + 1) * width);
  }

  path(chain: number, index: number): string {
    return `${this.prefixes[chain]!}${index}`;
  }

  private async extend(chain: number, to: number, charge: Charge): Promise<void> {
    const steps = this.steps[chain]!;
    const target = this.scripts[chain]!;
    let left = (this.nodes[chain] ? 0 : steps.length) + (to - target.count);
    let ticket: DerivationTicket | null = null;
    try {
      ticket = this.pool.admit(left);
      let node = this.nodes[chain];
      if (!node) {
        node = this.root;
        for (let at = 0; at < steps.length; at += STEPS_PER_JOB) {
          const slice = steps.slice(at, at + STEPS_PER_JOB);
          await charge(slice.length);
          const result = await ticket.run({ kind: 'steps', node, steps: slice });
          if (result.kind === 'steps') node = result.node;
          ticket.left((left -= slice.length));
        }
        this.nodes[chain] = node;
      }
      while (target.count < to) {
        const count = Math.min(SCRIPTS_PER_JOB, to - target.count);
        await charge(count);
        const result = await ticket.run({ kind: 'scripts', node, script: this.kind, from: target.count, count });
        if (result.kind === 'scripts') this.append(chain, result.bytes, result.width, to);
        ticket.left((left -= count));
      }
    } finally {
      ticket?.release();
    }
  }

  private append(chain: number, bytes: Uint8Array, width: number, wanted: number): void {
    const target = this.scripts[chain]!;
    target.width = width;
    const need = (target.count * width) + bytes.length;
    if (need > target.bytes.byteLength) {
      const scripts = Math.max(wanted, Math.ceil(target.count * 1.5), MIN_CAPACITY);
      const grown = new Uint8Array(scripts * width);
      grown.set(target.bytes.subarray(0, target.count * width));
      this.onGrow(grown.byteLength - target.bytes.byteLength);
      target.bytes = grown;
    }
    target.bytes.set(bytes, target.count * width);
    target.count += bytes.length / width;
  }
}

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
