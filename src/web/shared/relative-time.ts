/**
 * "3 min ago" from two UNIX times. Shared by the server (first render) and the client script (which keeps the
 * text current), so both write the same words. Pure: no DOM, no Node.
 */
const UNITS: readonly (readonly [seconds: number, name: string])[] = [
  [365 * 86_400, 'year'],
  [30 * 86_400, 'month'],
  [86_400, 'day'],
  [3_600, 'h'],
  [60, 'min'],
];

export function relativeTime(time: number, now: number): string {
  const delta = now - time;
  const future = delta < 0;
  const abs = Math.abs(delta);
  if (abs < 45) return future ? 'in a few seconds' : 'just now';
  for (const [size, name] of UNITS) {
    if (abs >= size || name === 'min') {
      const count = Math.max(1, Math.round(abs / size));
      const unit = name === 'year' || name === 'month' || name === 'day' ? `${name}${count === 1 ? '' : 's'}` : name;
      return future ? `in ${count} ${unit}` : `${count} ${unit} ago`;
    }
  }
  return 'just now';
}

/** `2024-05-01 12:34:56 UTC`: absolute times are always UTC, so every reader sees the same text. */
export function utcTime(time: number): string {
  return `${new Date(time * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
