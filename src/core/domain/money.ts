/** Base units (satoshi, litoshi, koinu). Always bigint: Dogecoin sums exceed 2^63 and floats round. */
export type Sats = bigint;

const COIN = 100_000_000n;

/** Formats base units as a decimal string with exactly 8 fractional digits ("-0.00000001" keeps its sign). */
export function formatCoins(value: Sats): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / COIN;
  const frac = (abs % COIN).toString().padStart(8, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

/** Parses a decimal coin string (up to 8 fractional digits) into base units without floating point. */
export function parseCoins(text: string): Sats {
  const match = /^(-?)(\d+)(?:\.(\d{1,8}))?$/.exec(text);
  if (!match) throw new RangeError(`not a coin amount: ${text}`);
  const [, sign, whole, frac = ''] = match;
  const units = BigInt(whole!) * COIN + BigInt(frac.padEnd(8, '0'));
  return sign === '-' ? -units : units;
}
