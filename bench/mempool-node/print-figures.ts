/** The real-node mempool bench's figures as lines a reader compares with the issue's targets. */
import type { BlockFigure, RunFigures, Spread } from './run-config.js';

const ms = (x: number | null): string => (x === null || Number.isNaN(x) ? '-' : `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`);
const spread = (s: Spread): string => `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} (n ${s.n}${s.missing ? `, ${s.missing} NEVER ARRIVED` : ''})`;
const block = (b: BlockFigure): string => `${b.txs} of ${b.mempoolBefore}: block_update ${ms(b.blockUpdateMs)}, mempool equal ${ms(b.mempoolEqualMs)}`;

export function printRun(f: RunFigures): void {
  const i = f.ingest;
  console.log(`\n== ${f.label} (load ${f.load})`);
  console.log(`  node accepted the prefill at ${Math.round(f.nodeAcceptTxPerS)} tx/s`);
  console.log(`  ingest: ${i.txs} txs in ${i.seconds.toFixed(1)} s from spawn (ready after ${i.readySeconds.toFixed(1)} s): ${Math.round(i.txPerS)} tx/s (target >= 1,000)`);
  console.log(`    v2 balance meanwhile: ${spread(i.balance)}${i.balance.failed ? `; not 200: ${i.balance.statuses}` : ''} (target p99 < 50 ms)`);
  console.log(`    get_info counts above the node's or going back: ${i.dishonest}; service CPU ${i.cpu.service.toFixed(1)} s, PostgreSQL ${i.cpu.database.toFixed(1)} s; RSS ${Math.round(i.rssMiB)} MiB`);
  const updates = f.blocks.map((b) => b.blockUpdateMs).filter((x): x is number => x !== null);
  const equal = f.blocks.map((b) => b.mempoolEqualMs).filter((x): x is number => x !== null);
  console.log(`  ${f.blocks.length} blocks: block_update max ${ms(updates.length ? Math.max(...updates) : null)}, mempool equal max ${ms(equal.length ? Math.max(...equal) : null)} (targets < 1 s, < 3 s)`);
  for (const b of f.blocks) console.log(`    ${block(b)}`);
  const u = f.burst;
  console.log(`  burst of ${u.txs} txs: tx_update ${spread(u.txUpdate)} (target p50 < 100, p99 < 250 ms, none missing)`);
  console.log(`    balance_update ${spread(u.balanceUpdate)}`);
  console.log(`    node − index count at most ${u.behindMax} (target <= 1 s of arrivals); v2 balance ${spread(u.balance)}${u.balance.failed ? `; not 200: ${u.balance.statuses}` : ''}`);
  console.log(`    service CPU ${u.cpu.service.toFixed(1)} s, PostgreSQL ${u.cpu.database.toFixed(1)} s; RSS ${Math.round(u.rssMiB)} MiB`);
  console.log(`  last block: ${block(f.lastBlock)}`);
}
