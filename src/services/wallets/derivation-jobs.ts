/**
 * A unit of derivation work, as a worker thread (derivation-worker.ts) or, without one, the event loop runs it: public
 * BIP32 steps from a node (a key's path to a chain's parent), or the output scripts of a run of a chain's address
 * indexes (every key of an index derived at that index, then the descriptor's script around them: a k-of-n index
 * derives n keys, combo() makes its forms from one). Jobs are small (KEYS_PER_JOB, STEPS_PER_JOB) so that the threads
 * serve every wallet in turn.
 */
import { HDKey } from '@scure/bip32';
import { formScript, type ScriptShape } from '../../chains/wallet/wallet-derivation.js';

/** Key derivations one job makes: about 40 ms of a core (docs/benchmarks.md, Wallets); whole indexes, at least one. */
export const KEYS_PER_JOB = 32;
/** Path steps one job derives (a descriptor's path may have hundreds: each costs as much as a key). */
export const STEPS_PER_JOB = 32;

/**
 * A BIP32 node as public derivation needs it, in one array: its public key (33 bytes) then its chain code (32). No
 * depth, index or fingerprint: nothing here serialises it. One array, not two, because a cached wallet keeps one per
 * key and chain, and each typed array weighs some 200 bytes besides its contents.
 */
export type ChainNode = Uint8Array;

export function packNode(publicKey: Uint8Array, chainCode: Uint8Array): ChainNode {
  const node = new Uint8Array(65);
  node.set(publicKey);
  node.set(chainCode, 33);
  return node;
}

export const nodeKey = (node: ChainNode): Uint8Array => node.subarray(0, 33);

/** One key of a chain as a scripts job reads it: a ranged key's parent node, or a key that is the same at every index. */
export type KeySource = { readonly node: ChainNode } | { readonly publicKey: Uint8Array };

export type DerivationJob =
  | { readonly kind: 'steps'; readonly node: ChainNode; readonly steps: readonly number[] }
  | { readonly kind: 'scripts'; readonly shape: ScriptShape; readonly keys: readonly KeySource[]; readonly from: number; readonly count: number };

export type DerivationResult =
  | { readonly kind: 'steps'; readonly node: ChainNode }
  /**
   * `count` indexes back to back, each its `width` forms in order; form f's scripts are all `widths[f]` bytes (a
   * form's length follows from the descriptor and its keys' lengths, which every index shares).
   */
  | { readonly kind: 'scripts'; readonly bytes: Uint8Array; readonly widths: readonly number[] };

export interface DerivationRequest {
  readonly id: number;
  readonly job: DerivationJob;
}

export type DerivationReply = { readonly id: number; readonly result: DerivationResult } | { readonly id: number; readonly error: string };

/** Key derivations per index of a scripts job: its ranged keys. */
export function rangedKeys(keys: readonly KeySource[]): number {
  return keys.reduce((n, k) => n + ('node' in k ? 1 : 0), 0);
}

/** Key derivations a job makes (path steps, or ranged keys × indexes): what it is charged and its time is learnt by. */
export function derivationsOf(job: DerivationJob): number {
  return job.kind === 'steps' ? job.steps.length : job.count * rangedKeys(job.keys);
}

function hd(node: ChainNode): HDKey {
  return new HDKey({ publicKey: nodeKey(node), chainCode: node.subarray(33) });
}

export function runDerivationJob(job: DerivationJob): DerivationResult {
  if (job.kind === 'steps') {
    let node = hd(job.node);
    for (const step of job.steps) node = node.deriveChild(step);
    return { kind: 'steps', node: packNode(node.publicKey!, node.chainCode!) };
  }
  const { shape, count } = job;
  const sources = job.keys.map((k) => ('node' in k ? hd(k.node) : k.publicKey));
  let widths: number[] | null = null;
  let bytes = new Uint8Array(0);
  let at = 0;
  for (let i = 0; i < count; i++) {
    const keys = sources.map((s) => (s instanceof HDKey ? s.deriveChild(job.from + i).publicKey! : s));
    const scripts = Array.from({ length: shape.width }, (_, form) => formScript(shape, keys, form));
    if (!widths) {
      widths = scripts.map((s) => s.length);
      bytes = new Uint8Array(count * widths.reduce((a, b) => a + b, 0));
    }
    scripts.forEach((script, form) => {
      // Never seen: every index's keys have the same lengths. Checked because the cache's layout relies on it.
      if (script.length !== widths![form]) throw new Error(`form ${form} of index ${job.from + i} is ${script.length} bytes, not ${widths![form]}`);
      bytes.set(script, at);
      at += script.length;
    });
  }
  return { kind: 'scripts', bytes, widths: widths ?? [] };
}
