/** What one measurement of the index bench (bench/index.bench.ts) yields, and its printed line. */
export type Mode = 'ceiling' | 'sqlite' | 'postgres';

export interface ChildResult {
  mode: Mode;
  seconds: number;
  blocks: number;
  txs: number;
  rawBytes: number;
  diskBytes: number | null;
  maxRssBytes: number;
  /** From the indexer's 'sync finished' line: waiting for the next batch, writing batches (index runs only). */
  split?: { waitingSeconds: number; writingSeconds: number };
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** One line per measurement; index runs also as a share of the same run's ceiling (fetch + parse, nothing written). */
export function report(r: ChildResult, ceiling: ChildResult | null): void {
  const parts = [
    `${Math.round(r.txs / r.seconds).toString().padStart(7)} tx/s`,
    `${Math.round(r.blocks / r.seconds).toString().padStart(5)} blocks/s`,
    `wall ${r.seconds.toFixed(2)} s`,
    `peak RSS ${mib(r.maxRssBytes)}`,
  ];
  if (r.diskBytes !== null) parts.push(`disk ${mib(r.diskBytes)} (${Math.round(r.diskBytes / r.txs)} B/tx)`);
  if (ceiling) parts.push(`${((r.txs / r.seconds / (ceiling.txs / ceiling.seconds)) * 100).toFixed(0)}% of ceiling`);
  if (r.split) parts.push(`waiting for blocks ${r.split.waitingSeconds.toFixed(2)} s, writing ${r.split.writingSeconds.toFixed(2)} s`);
  console.log(`  ${r.mode.padEnd(9)} ${parts.join(', ')}`);
}
