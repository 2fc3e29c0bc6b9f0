import { hash as oneShotHash } from 'node:crypto';
import type { Block } from '../../core/domain/chain-types.js';
import { fromDisplayHex, toHex } from '../hash.js';

function sha256d(data: Uint8Array): Buffer {
  return oneShotHash('sha256', oneShotHash('sha256', data, 'buffer'), 'buffer');
}

/** Merkle root over internal-order 32-byte hashes, Core style (an odd last node pairs with itself). */
export function merkleRootOfHashes(hashes: readonly Uint8Array[]): Uint8Array {
  if (hashes.length === 0) return new Uint8Array(32);
  let level = hashes.slice();
  const pair = new Uint8Array(64);
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      pair.set(level[i]!, 0);
      pair.set(level[i + 1] ?? level[i]!, 32);
      next.push(sha256d(pair));
    }
    level = next;
  }
  return level[0]!;
}

/** Merkle root of display-order txids, returned in display order (as the header's merkleRoot). */
export function merkleRoot(txids: readonly string[]): string {
  return toHex(merkleRootOfHashes(txids.map(fromDisplayHex)).slice().reverse());
}

const COMMITMENT_PREFIX = Uint8Array.of(0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed);

/** The BIP141 commitment in the coinbase (last matching output wins, as in Core), or null. */
export function witnessCommitment(block: Block): Uint8Array | null {
  const coinbase = block.txs[0];
  if (!coinbase) return null;
  for (let i = coinbase.outputs.length - 1; i >= 0; i--) {
    const script = coinbase.outputs[i]!.script;
    if (script.length >= 38 && COMMITMENT_PREFIX.every((b, j) => script[j] === b)) return script.subarray(6, 38);
  }
  return null;
}

/**
 * Recomputes sha256d(witness merkle root || reserved value) from the wtxids (coinbase counted as
 * zero; a Litecoin HogEx's wtxid is its txid) and compares it with the coinbase commitment.
 * Returns null when the block has no commitment.
 */
export function witnessCommitmentOk(block: Block): boolean | null {
  const commitment = witnessCommitment(block);
  const coinbase = block.txs[0];
  if (!commitment || !coinbase) return null;
  const reserved = coinbase.inputs[0]?.witness[0];
  if (!reserved || reserved.length !== 32) return false;
  const leaves = block.txs.map((tx, i) => (i === 0 ? new Uint8Array(32) : fromDisplayHex(tx.wtxid)));
  const root = merkleRootOfHashes(leaves);
  const preimage = new Uint8Array(64);
  preimage.set(root, 0);
  preimage.set(reserved, 32);
  return toHex(sha256d(preimage)) === toHex(commitment);
}
