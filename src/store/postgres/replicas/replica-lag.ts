/**
 * A replica's lag in time, from WAL positions. Each check records the newest WAL position known (the primary's
 * current one, or a replica's replay position when that is further: with the primary down the freshest replica sets
 * the reference) with the time it was seen. A replica's lag is how long it has been missing a position: 0 when it has
 * replayed the newest, else the time since the oldest recorded position beyond its replay position was first seen.
 * So an idle primary (no new WAL) makes no lag, unlike `now() - pg_last_xact_replay_timestamp()`, and a replica cut
 * off from its primary (which replays nothing new and so looks caught up on its own) lags from the first change it
 * misses. Accurate to one check interval.
 *
 * With the primary down, positions it reported that no replica received (WAL written in its last moments, or since
 * the last check) are out of reach: `lagMs` takes the freshest replica's replay position as a ceiling, so that replica
 * counts as current and keeps answering, instead of lagging out after the bound and leaving no server to read.
 */

/** `X/Y`, a pg_lsn as text, as a byte position. */
export function parseLsn(text: string): bigint {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text);
  if (!match) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}

export class LagClock {
  private readonly seen: { lsn: bigint; at: number }[] = [];

  /** `keepMs` (at least the lag bound): positions are kept while a replica behind them could still be within it. */
  constructor(private readonly keepMs: number) {}

  /** A WAL position known at `at` (ms); one not beyond the newest recorded adds nothing. */
  observe(lsn: bigint, at: number): void {
    const newest = this.seen.at(-1);
    if (newest && lsn <= newest.lsn) return;
    this.seen.push({ lsn, at });
    // The oldest entry may go once the next one is older than keepMs too: a replica behind both lags more than keepMs
    // either way, so the answer to "within the bound?" does not change.
    while (this.seen.length > 1 && this.seen[1]!.at < at - this.keepMs) this.seen.shift();
  }

  /**
   * Milliseconds a replica that replayed up to `replayed` has been missing a known change, as of `now`. `reachable`
   * (the primary down: the freshest replica's replay position) is the newest position any server can still serve;
   * a replica at it misses nothing that can be had.
   */
  lagMs(replayed: bigint, now: number, reachable: bigint | null = null): number {
    if (reachable !== null && replayed >= reachable) return 0;
    for (const s of this.seen) if (s.lsn > replayed) return Math.max(0, now - s.at);
    return 0;
  }

  /** The newest position recorded (null before the first). */
  get newest(): bigint | null {
    return this.seen.at(-1)?.lsn ?? null;
  }
}
