/**
 * What the soak samples every 10 s from the serve process: its resident memory (/proc, the whole process) and the
 * event-loop delay and heap it reports on /metrics; and the least-squares slope of a series, to say "flat" with a number.
 */
import { readFileSync } from 'node:fs';

export interface Sample {
  /** Seconds since the soak's start. */
  readonly at: number;
  readonly rssMiB: number;
  readonly heapMiB: number;
  /** p99 of the event-loop delay over prom-client's window, milliseconds. */
  readonly loopP99Ms: number;
  readonly requests: number;
  readonly failures: number;
  readonly events: number;
}

export function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** One gauge's value from Prometheus text (the first series of that name). */
export function gauge(text: string, name: string): number {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

export async function metricsSample(baseUrl: string): Promise<{ heapMiB: number; loopP99Ms: number }> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return { heapMiB: gauge(text, 'nodejs_heap_size_used_bytes') / 2 ** 20, loopP99Ms: gauge(text, 'nodejs_eventloop_lag_p99_seconds') * 1000 };
}

/** Least-squares slope of y over x (per unit of x). */
export function slope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? Number.NaN : sxy / sxx;
}
