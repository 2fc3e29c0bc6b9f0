/** Usage is counted per UTC day; days are named `yyyy-mm-dd` (store rows and Redis keys). */
const DAY = 86_400;

/** The last day computed: every request asks, and the answer changes once a day. */
let memo = { from: 0, to: -1, day: '' };

export function utcDay(unixSeconds: number): string {
  if (unixSeconds >= memo.from && unixSeconds < memo.to) return memo.day;
  const start = Math.floor(unixSeconds / DAY) * DAY;
  memo = { from: start, to: start + DAY, day: new Date(start * 1000).toISOString().slice(0, 10) };
  return memo.day;
}

export function previousUtcDay(unixSeconds: number): string {
  return utcDay(unixSeconds - DAY);
}

/** Seconds until the next 00:00 UTC (at least 1). */
export function secondsToUtcMidnight(unixSeconds: number): number {
  return Math.max(1, DAY - (Math.floor(unixSeconds) % DAY));
}
