/**
 * The PostgreSQL server's side of a scale run, sampled once a second from /proc: its resident memory (every process
 * of the cluster's private memory, RssAnon, plus the shared buffers once: the largest RssShmem, since every backend
 * maps the same segment) and the size of its data directory (tables, indexes, WAL: the transient peak of a bulk build).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function kb(status: string, field: string): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

function dirBytes(path: string): number {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    try {
      total += entry.isDirectory() ? dirBytes(full) : statSync(full).size;
    } catch {
      // removed meanwhile (a dropped table, a recycled WAL segment)
    }
  }
  return total;
}

export interface ClusterPeak {
  readonly rssBytes: number;
  /** Seconds since sampling started. */
  readonly rssAt: number;
  readonly diskBytes: number;
  readonly diskAt: number;
}

export class ClusterMemory {
  private readonly startedAt = performance.now();
  private readonly timer: NodeJS.Timeout;
  private ticks = 0;
  readonly peak = { rssBytes: 0, rssAt: 0, diskBytes: 0, diskAt: 0 };

  constructor(private readonly dataDirectory: string) {
    this.timer = setInterval(() => this.sample(), 1000);
    this.timer.unref();
    this.sample();
  }

  private sample(): void {
    const at = (performance.now() - this.startedAt) / 1000;
    try {
      const postmaster = readFileSync(join(this.dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]!.trim();
      let anon = 0;
      let shared = 0;
      for (const pid of readdirSync('/proc')) {
        if (!/^\d+$/.test(pid)) continue;
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
          if (pid !== postmaster && ppid !== postmaster) continue;
          const status = readFileSync(`/proc/${pid}/status`, 'utf8');
          anon += kb(status, 'RssAnon');
          shared = Math.max(shared, kb(status, 'RssShmem'));
        } catch {
          // exited meanwhile
        }
      }
      if (anon + shared > this.peak.rssBytes) Object.assign(this.peak, { rssBytes: anon + shared, rssAt: at });
    } catch {
      // the server is stopping
    }
    // The directory walk is the costlier reading: every 10 s.
    if (this.ticks++ % 10 === 0) {
      const bytes = dirBytes(this.dataDirectory);
      if (bytes > this.peak.diskBytes) Object.assign(this.peak, { diskBytes: bytes, diskAt: at });
    }
  }

  stop(): ClusterPeak {
    clearInterval(this.timer);
    this.sample();
    return { ...this.peak };
  }
}
