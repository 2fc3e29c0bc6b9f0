/**
 * Bitcoin's merkle tree over 32-byte hashes in internal byte order (a level of odd length pairs its last hash with
 * itself), as Electrum's proofs use it: a transaction's branch to its block's merkle root, and a header's branch to the
 * root over the block hashes of heights 0 to cp_height (protocol-basics.rst, "Block Headers"). A branch lists the
 * hashes paired with the leaf's, deepest first.
 */
import { sha256d } from '../../chains/hash.js';

const pair = (a: Uint8Array, b: Uint8Array): Uint8Array => sha256d(Buffer.concat([a, b]));

/** The next level up. */
export function merkleLevel(hashes: readonly Uint8Array[]): Uint8Array[] {
  const up: Uint8Array[] = [];
  for (let i = 0; i < hashes.length; i += 2) up.push(pair(hashes[i]!, hashes[i + 1] ?? hashes[i]!));
  return up;
}

/** Every level from the leaves to the root (the last level has one hash); one level for one leaf. */
export function merkleLevels(leaves: readonly Uint8Array[]): Uint8Array[][] {
  if (leaves.length === 0) throw new RangeError('a merkle tree needs a leaf');
  const levels = [[...leaves]];
  while (levels.at(-1)!.length > 1) levels.push(merkleLevel(levels.at(-1)!));
  return levels;
}

/** The branch of leaf `index` in a tree given by its levels (merkleLevels), deepest pairing first. */
export function branchOf(levels: readonly (readonly Uint8Array[])[], index: number): Uint8Array[] {
  const branch: Uint8Array[] = [];
  for (let level = 0, i = index; level < levels.length - 1; level++, i >>= 1) {
    const hashes = levels[level]!;
    branch.push(hashes[i ^ 1] ?? hashes[i]!);
  }
  return branch;
}

/** Branch and root of leaf `index`. */
export function branchAndRoot(leaves: readonly Uint8Array[], index: number): { branch: Uint8Array[]; root: Uint8Array } {
  const levels = merkleLevels(leaves);
  return { branch: branchOf(levels, index), root: levels.at(-1)![0]! };
}

/** Display hex (byte-reversed) of an internal-order hash, as Electrum writes branches and roots. */
export function displayHex(hash: Uint8Array): string {
  return Buffer.from(hash).reverse().toString('hex');
}
