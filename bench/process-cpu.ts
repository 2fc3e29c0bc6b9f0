/**
 * CPU time of the processes that serve a request, for benches on a shared machine: req/s moves with whatever else
 * runs, CPU microseconds per request much less. This process (the HTTP server) and, for PostgreSQL, every process of
 * the cluster (postmaster and backends, found through postmaster.pid and /proc).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime of a /proc/<pid>/stat line, in microseconds; also its parent pid. */
export function statOf(pid: string): { ppid: number; micros: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), micros: ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND };
  } catch {
    return null; // exited meanwhile
  }
}

export function ownCpuMicros(): number {
  const used = process.cpuUsage();
  return used.user + used.system;
}

/**
 * CPU microseconds used so far by a PostgreSQL cluster: its postmaster and live children. A backend that exits takes
 * its time with it, so measure over a span in which the pool's connections stay open.
 */
export function clusterCpuMicros(dataDirectory: string): number {
  const postmaster = readFileSync(join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]!.trim();
  let total = statOf(postmaster)?.micros ?? 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = statOf(pid);
    if (stat && String(stat.ppid) === postmaster) total += stat.micros;
  }
  return total;
}

/** CPU microseconds of a process and its live children (a server and its worker processes). */
export function treeCpuMicros(pid: number): number {
  let total = statOf(String(pid))?.micros ?? 0;
  for (const child of readdirSync('/proc')) {
    if (!/^\d+$/.test(child)) continue;
    const stat = statOf(child);
    if (stat && stat.ppid === pid) total += stat.micros;
  }
  return total;
}
