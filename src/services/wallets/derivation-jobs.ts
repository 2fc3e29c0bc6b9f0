/**
 * A unit of derivation work, as a worker thread (derivation-worker.ts) or, without one, the event loop runs it: public
 * BIP32 steps from a node (a descriptor's path to a chain's parent), or the output scripts of a run of a chain's
 * children. Jobs are small (STEPS_PER_JOB, SCRIPTS_PER_JOB) so that the threads serve every wallet in turn.
 */
import { HDKey } from '@scure/bip32';
import { keyScript } from '../../chains/wallet/wallet-derivation.js';
import type { DescriptorKind } from '../../chains/wallet/wallet-descriptor.js';

/** Addresses one job derives: about 40 ms of a core (docs/benchmarks.md, Wallets). */
export const SCRIPTS_PER_JOB = 32;
/** Path steps one job derives (a descriptor's path may have hundreds: each costs as much as an address). */
export const STEPS_PER_JOB = 32;

/** A BIP32 node as public derivation needs it (no depth, index or fingerprint: nothing here serialises it). */
export interface ChainNode {
  readonly publicKey: Uint8Array;
  readonly chainCode: Uint8Array;
}

export type DerivationJob =
  | { readonly kind: 'steps'; readonly node: ChainNode; readonly steps: readonly number[] }
  | { readonly kind: 'scripts'; readonly node: ChainNode; readonly script: DescriptorKind; readonly from: number; readonly count: number };

export type DerivationResult =
  | { readonly kind: 'steps'; readonly node: ChainNode }
  /** `count` scripts of `width` bytes each, back to back. */
  | { readonly kind: 'scripts'; readonly bytes: Uint8Array; readonly width: number };

export interface DerivationRequest {
  readonly id: number;
  readonly job: DerivationJob;
}

export type DerivationReply = { readonly id: number; readonly result: DerivationResult } | { readonly id: number; readonly error: string };

export function runDerivationJob(job: DerivationJob): DerivationResult {
  let node = new HDKey({ publicKey: job.node.publicKey, chainCode: job.node.chainCode });
  if (job.kind === 'steps') {
    for (const step of job.steps) node = node.deriveChild(step);
    return { kind: 'steps', node: { publicKey: node.publicKey!, chainCode: node.chainCode! } };
  }
  let bytes: Uint8Array | null = null;
  let width = 0;
  for (let i = 0; i < job.count; i++) {
    const script = keyScript(job.script, node.deriveChild(job.from + i).publicKey!);
    if (!bytes) {
      width = script.length;
      bytes = new Uint8Array(width * job.count);
    }
    bytes.set(script, i * width);
  }
  return { kind: 'scripts', bytes: bytes ?? new Uint8Array(0), width };
}
