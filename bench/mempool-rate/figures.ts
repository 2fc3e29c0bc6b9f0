/**
 * The mempool bench's figures from what a run recorded: per tx, how long after the node had it the index had it
 * (count probe) and realtime delivered it (tx_update, balance_update), overall and per phase; the node/index count
 * difference sampled each second; the service's CPU share and memory per phase.
 */
import { percentile } from '../soak/soak-load.js';
import type { CountProbe } from './count-probe.js';
import type { RealtimeWatch } from './realtime-watch.js';
import type { AddedTx, Phase } from './schedule.js';

export interface Spread {
  readonly n: number;
  readonly missing: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** Share of txs later than the poll interval (index lag) or 250 ms (realtime). */
  readonly over: number;
}

export interface SecondSample {
  readonly second: number;
  readonly phase: number;
  readonly nodeCount: number;
  readonly indexCount: number;
  /** CPU seconds the service used so far, and its resident memory now. */
  readonly cpuSeconds: number;
  readonly rssBytes: number;
}

export interface PhaseFigures {
  readonly label: string;
  readonly txs: number;
  readonly indexLag: Spread;
  readonly txUpdate: Spread;
  readonly balanceUpdate: Spread;
  /** Node count minus index count, sampled each second: mean and max. */
  readonly behindMean: number;
  readonly behindMax: number;
  /** Service CPU, share of one core over the phase, and CPU milliseconds per tx that arrived in it. */
  readonly cpuShare: number;
  readonly cpuMsPerTx: number;
  readonly rssMaxBytes: number;
}

export function spread(added: readonly AddedTx[], arrival: (tx: AddedTx, i: number) => number | null | undefined, limitMs: number): Spread {
  const lags: number[] = [];
  let missing = 0;
  added.forEach((tx, i) => {
    const at = arrival(tx, i);
    if (at === null || at === undefined) missing++;
    else lags.push(Math.max(0, at - tx.at));
  });
  return {
    n: lags.length, missing, p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags.length ? Math.max(...lags) : Number.NaN,
    over: lags.length ? lags.filter((l) => l > limitMs).length / lags.length : 0,
  };
}

/** Figures of each phase and of the whole run (label "all"). */
export function phaseFigures(
  phases: readonly Phase[], added: readonly AddedTx[], probe: CountProbe, watch: RealtimeWatch, seconds: readonly SecondSample[], pollMs: number,
  /** Txs in the mempool before the schedule. */
  prefilled: number,
): PhaseFigures[] {
  const indexed = added.map((tx, i) => ({ tx, indexAt: probe.reachedAt(prefilled + i + 1) }));
  const of = (keep: (phase: number) => boolean, label: string): PhaseFigures => {
    const mine = indexed.filter((x) => keep(x.tx.phase));
    const txs = mine.map((x) => x.tx);
    const secs = seconds.filter((s) => s.second > 0 && keep(s.phase));
    // CPU over the phase: from the sample just before its first second (second 0 is taken before the schedule starts).
    const before = secs.length ? seconds.find((s) => s.second === secs[0]!.second - 1) : undefined;
    const last = secs.at(-1);
    const cpuSeconds = before && last ? last.cpuSeconds - before.cpuSeconds : Number.NaN;
    const cpuShare = before && last ? cpuSeconds / (last.second - before.second) : Number.NaN;
    const behind = secs.map((s) => s.nodeCount - s.indexCount);
    return {
      label, txs: txs.length,
      indexLag: spread(txs, (_, i) => mine[i]!.indexAt, pollMs),
      txUpdate: spread(txs, (tx) => watch.txUpdates.get(tx.txid), 250),
      balanceUpdate: spread(txs, (tx) => watch.balanceUpdates.get(tx.txid), 250),
      behindMean: behind.length ? behind.reduce((a, b) => a + b, 0) / behind.length : Number.NaN,
      behindMax: behind.length ? Math.max(...behind) : Number.NaN,
      cpuShare, cpuMsPerTx: txs.length ? (cpuSeconds * 1000) / txs.length : Number.NaN,
      rssMaxBytes: secs.length ? Math.max(...secs.map((s) => s.rssBytes)) : Number.NaN,
    };
  };
  return [...phases.map((p, i) => of((phase) => phase === i, `${p.label} (${p.rate} tx/s, ${p.seconds} s)`)), of(() => true, 'all')];
}

const ms = (x: number): string => (Number.isNaN(x) ? '-' : `${Math.round(x)} ms`);
const spreadText = (s: Spread, limit: string): string =>
  `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)}; ${(s.over * 100).toFixed(1)} % over ${limit}${s.missing ? `; ${s.missing} NEVER ARRIVED` : ''}`;

export function printFigures(figures: readonly PhaseFigures[], pollMs: number): void {
  for (const f of figures) {
    console.log(`  ${f.label}: ${f.txs} txs`);
    console.log(`    index behind the node, per tx (count probe): ${spreadText(f.indexLag, `one poll interval (${pollMs} ms)`)}`);
    console.log(`    node count - index count, each second: mean ${f.behindMean.toFixed(1)}, max ${f.behindMax}`);
    console.log(`    realtime tx_update (blockchain channel): ${spreadText(f.txUpdate, '250 ms')}`);
    console.log(`    realtime balance_update (watched address channels): ${spreadText(f.balanceUpdate, '250 ms')}`);
    console.log(`    service CPU ${(f.cpuShare * 100).toFixed(0)} % of a core${f.txs ? ` (${f.cpuMsPerTx.toFixed(1)} ms per tx)` : ''}; RSS up to ${Math.round(f.rssMaxBytes / 2 ** 20)} MiB`);
  }
}
