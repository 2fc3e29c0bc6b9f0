/**
 * Where the listener may connect: the configured `p2p_peers` (always wanted, may share a host) and addresses
 * discovered from the node (at most one connection per /16, so one operator's address range cannot fill our view of
 * the network). Each address carries its own backoff: failures and misbehaviour push its next attempt away.
 */

export interface Candidate {
  readonly host: string;
  readonly port: number;
  readonly configured: boolean;
  /** Network group for diversity: IPv4 /16, IPv6 /32, a host name as itself. */
  readonly group: string;
  failures: number;
  /** UNIX ms before which no new attempt is made. */
  notBeforeMs: number;
}

/** Most discovered addresses kept (the node's book may hold tens of thousands; we need a handful). */
const MAX_DISCOVERED = 1_000;

export interface Backoff {
  readonly firstMs: number;
  readonly maxMs: number;
  /** A misbehaving peer waits this long before another attempt. */
  readonly misbehaviourMs: number;
}

/** Configured peers are the operator's own choice (often their own nodes): retried quickly, never given up. */
export const CONFIGURED_BACKOFF: Backoff = Object.freeze({ firstMs: 1_000, maxMs: 60_000, misbehaviourMs: 60_000 });
/** Discovered peers are strangers: slower retries, and a misbehaving one is shunned for a day. */
export const DISCOVERED_BACKOFF: Backoff = Object.freeze({ firstMs: 30_000, maxMs: 3_600_000, misbehaviourMs: 86_400_000 });

/** host:port or [v6]:port; the port defaults to the network's. Throws RangeError on anything else. */
export function parsePeerAddress(text: string, defaultPort: number): { host: string; port: number } {
  const v6 = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(text);
  const plain = /^([A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(text);
  const match = v6 ?? plain;
  if (!match) throw new RangeError(`"${text}" is not host:port`);
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RangeError(`"${text}": port out of range`);
  return { host: match[1]!.toLowerCase(), port };
}

export function networkGroup(host: string): string {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host);
  if (v4) return `${v4[1]}.${v4[2]}`;
  if (host.includes(':')) {
    const mapped = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i.exec(host);
    if (mapped) return networkGroup(mapped[1]!);
    const [a = '0', b = '0'] = host.split(':');
    return `${a}:${b}`;
  }
  return host;
}

export class AddressBook {
  private readonly configured: Candidate[];
  private readonly discovered = new Map<string, Candidate>();

  constructor(configured: readonly string[], private readonly defaultPort: number) {
    this.configured = configured.map((text) => this.candidate(text, true));
  }

  get configuredCount(): number {
    return this.configured.length;
  }

  get discoveredCount(): number {
    return this.discovered.size;
  }

  /** Adds addresses the node knows (unparsable, duplicate and configured ones are skipped); returns how many were new. */
  addDiscovered(addresses: readonly string[]): number {
    let added = 0;
    const configured = new Set(this.configured.map(key));
    for (const text of addresses) {
      if (this.discovered.size >= MAX_DISCOVERED) break;
      let c: Candidate;
      try {
        c = this.candidate(text, false);
      } catch {
        continue;
      }
      if (configured.has(key(c)) || this.discovered.has(key(c))) continue;
      this.discovered.set(key(c), c);
      added++;
    }
    return added;
  }

  /** Configured peers due for an attempt, except those `busy` says are connected or connecting. */
  dueConfigured(nowMs: number, busy: (c: Candidate) => boolean): Candidate[] {
    return this.configured.filter((c) => c.notBeforeMs <= nowMs && !busy(c));
  }

  /** The discovered address to try next: due, not busy, and of a /16 no discovered connection already uses. */
  nextDiscovered(nowMs: number, busy: (c: Candidate) => boolean, groupsInUse: ReadonlySet<string>): Candidate | null {
    let best: Candidate | null = null;
    for (const c of this.discovered.values()) {
      if (c.notBeforeMs > nowMs || busy(c) || groupsInUse.has(c.group)) continue;
      if (!best || c.failures < best.failures) best = c;
      if (best.failures === 0) break;
    }
    return best;
  }

  /** Discovered addresses that could be tried now or later (not shunned for misbehaviour). */
  hasUsableDiscovered(nowMs: number): boolean {
    for (const c of this.discovered.values()) if (c.notBeforeMs <= nowMs) return true;
    return false;
  }

  succeeded(c: Candidate): void {
    c.failures = 0;
  }

  failed(c: Candidate, nowMs: number): void {
    const backoff = c.configured ? CONFIGURED_BACKOFF : DISCOVERED_BACKOFF;
    c.failures++;
    const delay = Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.min(c.failures - 1, 20));
    // ±20 % jitter, so peers that failed together do not retry in lockstep.
    c.notBeforeMs = nowMs + Math.round(delay * (0.8 + 0.4 * Math.random()));
  }

  misbehaved(c: Candidate, nowMs: number): void {
    const backoff = c.configured ? CONFIGURED_BACKOFF : DISCOVERED_BACKOFF;
    c.failures++;
    c.notBeforeMs = nowMs + backoff.misbehaviourMs;
  }

  private candidate(text: string, configured: boolean): Candidate {
    const { host, port } = parsePeerAddress(text, this.defaultPort);
    return { host, port, configured, group: networkGroup(host), failures: 0, notBeforeMs: 0 };
  }
}

function key(c: Candidate): string {
  return `${c.host}|${c.port}`;
}
