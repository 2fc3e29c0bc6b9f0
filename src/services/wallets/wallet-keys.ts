/**
 * One wallet's derived scripts as the derivation cache (derivation-cache.ts) holds them, and what they weigh. Deriving
 * is the expensive part of a wallet read (one elliptic curve multiplication per key and address index: a k-of-n index
 * derives n keys; docs/benchmarks.md "Wallets"); it runs on the pool's threads (derivation-pool.ts) in jobs
 * (derivation-jobs.ts), each charged before it runs, per key derivation, to the client that asked (`Charge`).
 *
 * A chain's scripts are stored back to back, index after index, each index its forms in order (combo()'s forms, one
 * otherwise). The scripts of one form all have one length (the descriptor and its keys' lengths fix it: derived keys
 * are 33 bytes, a plain key is as written), so a position is found from the per-form widths by arithmetic: no offsets
 * array, which would add 4 bytes to every script (18 % of a P2WPKH script's 22).
 */
import { keyPath, positionPath, type ScriptShape } from '../../chains/wallet/wallet-derivation.js';
import type { WalletDescriptor } from '../../chains/wallet/wallet-descriptor.js';
import type { DerivationPool, DerivationTicket } from './derivation-pool.js';
import {
  derivationsOf, KEYS_PER_JOB, nodeKey, packNode, runDerivationJob, STEPS_PER_JOB,
  type ChainNode, type DerivationJob, type DerivationResult, type KeySource,
} from './derivation-jobs.js';

/**
 * What a wallet holds besides its scripts' bytes and its keys past the first: the entry, its arrays and their headers,
 * the first key's nodes (its descriptor text is counted apart). A one-address single-key wallet weighs 3.7-3.9 KiB in
 * all, heap and array buffers, 704 bytes of it its two chains' first arrays (derivation-cache.test.ts measures it):
 * counted with this it comes to about 4.5 KiB.
 */
export const WALLET_OVERHEAD_BYTES = 3584;
/**
 * Each key past the first: its node at the root and at each chain's parent (some 300 bytes each, mostly typed array
 * headers), its steps. Measured 1.2-1.3 KiB a key (a one-address 3-of-5 wallet weighs 8.7-9.4 KiB in all).
 */
export const KEY_OVERHEAD_BYTES = 1536;
/** A chain's array grows by half again (at least this many indexes), so growing costs few copies. */
const MIN_CAPACITY = 16;
/** Address indexes of a ranged chain (BIP32's unhardened children). */
const RANGED_INDEXES = 0x80000000;

/**
 * Counts `derivations` (key derivations, path steps included) against the asking client's budget before they run;
 * throws BudgetSpentError when it is spent (what was derived until then stays cached).
 */
export type Charge = (derivations: number) => Promise<void>;

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

/** A chain's scripts: `count` indexes back to back, each the wallet's `stride` bytes. */
interface ChainScripts {
  bytes: Uint8Array;
  count: number;
}

/** Where an index's forms lie in its bytes: form f at `offsets[f]`, `widths[f]` long (the same on every chain). */
interface FormLayout {
  readonly widths: readonly number[];
  readonly offsets: readonly number[];
  readonly stride: number;
}

/**
 * One wallet's chains as derived so far, and where the last scan found their last used address. It keeps of the
 * parsed descriptor only what derivation needs (its key objects weigh more than a small wallet's scripts).
 */
export class WalletKeys {
  readonly descriptor: string;
  readonly width: number;
  readonly addressForm: number;
  readonly chainLength: number;
  readonly derivationsPerIndex: number;
  /** The last used index per chain at the last scan (-1: none): the next scan starts with everything up to it. */
  readonly lastUsed: number[];
  private readonly shape: ScriptShape;
  /** Per key: the extended key's node, or a plain key's bytes. */
  private readonly roots: readonly KeySource[];
  private readonly ranged: readonly boolean[];
  /** Per chain, per key: the steps from the key to the chain's parent (ranged) or to the key itself. */
  private readonly steps: readonly (readonly (readonly number[])[])[];
  /** Per chain, per key, once its steps are derived: what a scripts job starts from. */
  private readonly sources: (readonly KeySource[] | null)[];
  private readonly scripts: ChainScripts[];
  /** Set by the first scripts derived. */
  private layout: FormLayout | null = null;
  private extending: Promise<void> | null = null;

  constructor(
    wallet: WalletDescriptor,
    private readonly pool: DerivationPool,
    private readonly onGrow: (bytes: number) => void,
  ) {
    this.descriptor = wallet.descriptor;
    this.width = wallet.width;
    this.addressForm = wallet.addressForm;
    this.chainLength = (wallet.ranged ? RANGED_INDEXES : 1) * wallet.width;
    this.shape = { kind: wallet.kind, multisig: wallet.multisig, script: wallet.script, width: wallet.width };
    this.roots = wallet.keys.map((k) => (k.key
      ? { node: packNode(k.key.node.publicKey!, k.key.node.chainCode!) }
      : { publicKey: k.publicKey! }));
    this.ranged = wallet.keys.map((k) => k.ranged);
    this.derivationsPerIndex = this.ranged.filter(Boolean).length;
    this.steps = wallet.chains;
    this.sources = wallet.chains.map(() => null);
    this.scripts = wallet.chains.map(() => ({ bytes: new Uint8Array(0), count: 0 }));
    this.lastUsed = wallet.chains.map(() => -1);
  }

  get chains(): number {
    return this.scripts.length;
  }

  /** Bytes held: the overheads, the descriptor's text and every chain's array (its capacity, not only what is filled). */
  get bytes(): number {
    return WALLET_OVERHEAD_BYTES + Math.max(0, this.roots.length - 1) * KEY_OVERHEAD_BYTES + this.descriptor.length * 2 +
      (this.shape.script?.byteLength ?? 0) + this.scripts.reduce((sum, s) => sum + s.bytes.byteLength, 0);
  }

  /** The wallet's chains for one request: what it derives is charged to `charge`. */
  forRequest(charge: Charge): WalletChains {
    return {
      descriptor: this.descriptor,
      chains: this.chains,
      width: this.width,
      chainLength: this.chainLength,
      addressForm: this.addressForm,
      derivationsPerIndex: this.derivationsPerIndex,
      lastUsed: this.lastUsed,
      range: (chain, from, to) => this.range(chain, from, to, charge),
      script: (chain, index) => this.script(chain, index),
      path: (chain, index) => this.path(chain, index),
    };
  }

  /**
   * Positions `from` to `to` of `chain`, deriving the indexes missing; a request waiting for another's derivation pays
   * nothing, and tries its own if that one failed.
   */
  async range(chain: number, from: number, to: number, charge: Charge): Promise<Uint8Array[]> {
    if (to > this.chainLength) throw new RangeError(`no script ${to - 1} in this chain`);
    const indexes = Math.ceil(to / this.width);
    while (this.scripts[chain]!.count < indexes) {
      if (this.extending) {
        await this.extending.catch(() => undefined);
        continue;
      }
      this.extending = this.extend(chain, indexes, charge).finally(() => (this.extending = null));
      await this.extending;
    }
    return Array.from({ length: to - from }, (_, i) => this.script(chain, from + i));
  }

  script(chain: number, position: number): Uint8Array {
    const { bytes, count } = this.scripts[chain]!;
    const index = Math.floor(position / this.width);
    if (index >= count || !this.layout) throw new RangeError(`script ${chain}/${position} not derived yet`);
    const form = position % this.width;
    const start = index * this.layout.stride + this.layout.offsets[form]!;
    return bytes.subarray(start, start + this.layout.widths[form]!);
  }

  /** Made when asked (a page's used addresses), not kept: the wallet holds only its steps. */
  path(chain: number, position: number): string | null {
    const paths = this.steps[chain]!.map((steps, key) => keyPath('node' in this.roots[key]!, this.ranged[key]!, steps));
    return positionPath(paths, this.width, position);
  }

  /** Path steps still to derive before `chain`'s scripts can be. */
  private stepsLeft(chain: number): number {
    if (this.sources[chain]) return 0;
    return this.steps[chain]!.reduce((sum, steps, key) => sum + ('node' in this.roots[key]! ? steps.length : 0), 0);
  }

  private async extend(chain: number, indexes: number, charge: Charge): Promise<void> {
    const target = this.scripts[chain]!;
    let left = this.stepsLeft(chain) + (indexes - target.count) * this.derivationsPerIndex;
    // Nothing to derive (plain keys, addr(), raw(), an extended key used as it is): made here, on no thread, free.
    const ticket: DerivationTicket | null = left > 0 ? this.pool.admit(left) : null;
    try {
      const run = async (job: DerivationJob): Promise<DerivationResult> => {
        if (!ticket) return runDerivationJob(job);
        const derivations = derivationsOf(job);
        if (derivations > 0) await charge(derivations);
        const result = await ticket.run(job);
        ticket.left((left -= derivations));
        return result;
      };
      const keys = this.sources[chain] ?? (await this.keySources(chain, run));
      this.sources[chain] = keys;
      // Whole indexes per job, as many as KEYS_PER_JOB derivations allow (a 20-key index is one job of 20).
      const perJob = Math.max(1, Math.floor(KEYS_PER_JOB / Math.max(1, this.derivationsPerIndex)));
      while (target.count < indexes) {
        this.append(chain, await run(this.scriptsJob(keys, target.count, Math.min(perJob, indexes - target.count))), indexes);
      }
    } finally {
      ticket?.release();
    }
  }

  /** Each key's node at the chain's parent (ranged) or its public key there, its path's steps derived in jobs. */
  private async keySources(chain: number, run: (job: DerivationJob) => Promise<DerivationResult>): Promise<KeySource[]> {
    const sources: KeySource[] = [];
    for (const [key, root] of this.roots.entries()) {
      if (!('node' in root)) {
        sources.push(root);
        continue;
      }
      const steps = this.steps[chain]![key]!;
      let node: ChainNode = root.node;
      for (let at = 0; at < steps.length; at += STEPS_PER_JOB) {
        const result = await run({ kind: 'steps', node, steps: steps.slice(at, at + STEPS_PER_JOB) });
        if (result.kind === 'steps') node = result.node;
      }
      sources.push(this.ranged[key] ? { node } : { publicKey: nodeKey(node).slice() });
    }
    return sources;
  }

  private scriptsJob(keys: readonly KeySource[], from: number, count: number): DerivationJob {
    return { kind: 'scripts', shape: this.shape, keys, from, count };
  }

  private append(chain: number, result: DerivationResult, wanted: number): void {
    if (result.kind !== 'scripts') return;
    const layout = (this.layout ??= layoutOf(result.widths));
    if (result.widths.some((w, form) => w !== layout.widths[form])) {
      throw new Error(`chain ${chain}: scripts of ${result.widths.join('/')} bytes after ${layout.widths.join('/')}`);
    }
    const target = this.scripts[chain]!;
    const { stride } = layout;
    if (target.count * stride + result.bytes.length > target.bytes.byteLength) {
      const capacity = Math.min(this.chainLength / this.width, Math.max(wanted, Math.ceil(target.count * 1.5), MIN_CAPACITY));
      const grown = new Uint8Array(capacity * stride);
      grown.set(target.bytes.subarray(0, target.count * stride));
      this.onGrow(grown.byteLength - target.bytes.byteLength);
      target.bytes = grown;
    }
    target.bytes.set(result.bytes, target.count * stride);
    target.count += result.bytes.length / stride;
  }
}

function layoutOf(widths: readonly number[]): FormLayout {
  const stride = widths.reduce((a, b) => a + b, 0);
  if (stride === 0) throw new Error('no script bytes derived');
  return { widths: [...widths], offsets: widths.map((_, form) => widths.slice(0, form).reduce((a, b) => a + b, 0)), stride };
}
