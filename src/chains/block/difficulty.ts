/**
 * Decodes nBits (compact target) as Core's arith_uint256::SetCompact. Targets flagged negative or
 * overflowing 256 bits are invalid as proof-of-work targets and return 0n.
 */
export function targetFromBits(bits: number): bigint {
  const size = bits >>> 24;
  let word = bits & 0x007fffff;
  let target: bigint;
  if (size <= 3) {
    word >>>= 8 * (3 - size);
    target = BigInt(word);
  } else {
    target = BigInt(word) << BigInt(8 * (size - 3));
  }
  const negative = word !== 0 && (bits & 0x00800000) !== 0;
  const overflow = word !== 0 && (size > 34 || (word > 0xff && size > 33) || (word > 0xffff && size > 32));
  return negative || overflow ? 0n : target;
}

/** Core's GetDifficulty: the float ratio of the difficulty-1 target (0x1d00ffff) to this target. */
export function difficultyFromBits(bits: number): number {
  let shift = (bits >>> 24) & 0xff;
  let diff = 0x0000ffff / (bits & 0x00ffffff);
  while (shift < 29) {
    diff *= 256.0;
    shift++;
  }
  while (shift > 29) {
    diff /= 256.0;
    shift--;
  }
  return diff;
}

/**
 * Difficulty as every API spells it (v2 mining_difficulty, v3 difficulty, realtime block_update): fixed to 8
 * decimals, never exponent form (regtest's 4.66e-10 would print as "4.6565423739069247e-10" otherwise).
 */
export function formatDifficulty(value: number): string {
  return Number.isFinite(value) ? value.toFixed(8) : '0.00000000';
}

const TWO_256 = 1n << 256n;

/** Expected hashes for a block at this target, Core's GetBlockProof: 2^256 / (target + 1); 0n if invalid. */
export function workFromBits(bits: number): bigint {
  const target = targetFromBits(bits);
  if (target === 0n) return 0n;
  return TWO_256 / (target + 1n);
}
