import { createHash } from 'node:crypto';
import type { Transaction } from '../src/core/index.js';
import { makeTx, script } from '../test/helpers/sightings-kit.js';

/**
 * `count` distinct one-input, one-output transactions (about 85 bytes, real serializations with true txids), the same
 * for the same index in every process: the synthetic peers announce and serve them, the bench feeds the same ones to
 * the watcher as our node's mempool.
 */
export function syntheticTxs(count: number): Transaction[] {
  return Array.from({ length: count }, (_, i) =>
    makeTx([{ txid: createHash('sha256').update(`outpoint-bench-prev-${i}`).digest('hex'), vout: 0 }], [{ value: 10_000n + BigInt(i), script: script(`bench-${i}`) }]));
}
