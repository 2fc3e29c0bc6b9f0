/**
 * The initial sync's rate per million transactions. Heights logged over time become cumulative transaction counts
 * (the chain's index); the time of each million is interpolated between samples. The deferred index build (a
 * "building indexes" phase, during which no height moves) is taken out of the timeline and spread over every
 * million in proportion to its transactions, so each million's figure includes its share of the build.
 */
import type { HeightSample, PhaseSpan } from './progress-log.js';

export interface MillionFigure {
  /** Transactions in this chunk (a million, the last one possibly fewer). */
  readonly txs: number;
  /** Seconds of loading (samples' timeline without the index build). */
  readonly loadSeconds: number;
  /** The chunk's share of the index build. */
  readonly buildSeconds: number;
  readonly txPerSecond: number;
  readonly loadTxPerSecond: number;
}

export interface LoadCurve {
  readonly perMillion: MillionFigure[];
  readonly buildSeconds: number;
  readonly totalSeconds: number;
  readonly txs: number;
}

/**
 * `txsThrough(height)`: transactions in blocks 0..height. The curve starts at (0 s, 0 txs) (the process spawn) and
 * ends at (`readyAt`, `tipTxs`): the moment address queries answered at the tip, so every second of the wait is in
 * some million's figure (the last one holds whatever came after the last block was written).
 */
export function loadCurve(samples: readonly HeightSample[], phases: readonly PhaseSpan[], txsThrough: (height: number) => number, readyAt: number, tipTxs: number, chunk = 1_000_000): LoadCurve {
  const builds = phases.filter((p) => p.phase === 'building indexes');
  const buildMs = builds.reduce((sum, p) => sum + (p.to - p.from), 0);
  /** Time on the loading timeline: the build spans removed. */
  const loadTime = (at: number): number => at - builds.reduce((sum, p) => sum + Math.max(0, Math.min(at, p.to) - p.from), 0);
  const points: { t: number; txs: number }[] = [{ t: 0, txs: 0 }];
  for (const s of samples) {
    const txs = txsThrough(s.height);
    if (txs >= tipTxs) break; // the tip counts when queries answer there (below): the last chunk holds the tail
    const t = loadTime(s.at);
    if (txs > points[points.length - 1]!.txs && t >= points[points.length - 1]!.t) points.push({ t, txs });
  }
  points.push({ t: loadTime(readyAt), txs: tipTxs });
  const timeAt = (txs: number): number => {
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1]!;
      const b = points[i]!;
      if (b.txs >= txs) return a.t + ((b.t - a.t) * (txs - a.txs)) / Math.max(1, b.txs - a.txs);
    }
    return points[points.length - 1]!.t;
  };
  const perMillion: MillionFigure[] = [];
  for (let from = 0; from < tipTxs; from += chunk) {
    // A remainder under half a chunk joins the last chunk (a chain is cut at a block boundary, just past the count).
    let to = Math.min(from + chunk, tipTxs);
    if (tipTxs - to < chunk / 2) to = tipTxs;
    const loadSeconds = (timeAt(to) - timeAt(from)) / 1000;
    const buildSeconds = ((buildMs / 1000) * (to - from)) / tipTxs;
    perMillion.push({
      txs: to - from,
      loadSeconds,
      buildSeconds,
      txPerSecond: (to - from) / (loadSeconds + buildSeconds),
      loadTxPerSecond: (to - from) / loadSeconds,
    });
    from = to - chunk;
  }
  return { perMillion, buildSeconds: buildMs / 1000, totalSeconds: readyAt / 1000, txs: tipTxs };
}
