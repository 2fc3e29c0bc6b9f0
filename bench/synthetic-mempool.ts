/** A synthetic mempool for projection benches (bench/api-v3.bench.ts, bench/wallet.bench.ts). */
import type { MempoolSourceEntry } from '../src/core/index.js';

/** `n` txs, one in ten spending its predecessor (ancestor packages), fee rates 1..100 per vbyte. */
export function syntheticMempool(n: number): MempoolSourceEntry[] {
  const id = (i: number) => i.toString(16).padStart(64, '0');
  return Array.from({ length: n }, (_, k) => {
    const i = k + 1;
    const vsize = 110 + ((i * 37) % 400);
    return { txid: id(i), fee: BigInt(vsize * (1 + ((i * 7_919) % 100))), vsize, weight: vsize * 4 - (i % 3), size: vsize + 40, depends: i % 10 === 0 ? [id(i - 1)] : [] };
  });
}

