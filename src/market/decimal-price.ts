/**
 * Prices travel as decimal strings from the exchange's JSON to the database and the API: never through a
 * float, which would turn 0.1 + 0.2 into 0.30000000000000004 and print DOGE/BTC as 2.5e-6. These helpers
 * check, normalise, compare and average such strings with string and bigint arithmetic only.
 */

/** Digits, an optional fraction and (Bitfinex sends JSON numbers) an optional exponent. */
const DECIMAL = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d{1,3}))?$/;
/** Longer texts are not prices: refuse them rather than store garbage. */
const MAX_LENGTH = 64;

/**
 * The canonical form of a positive decimal (no leading zeros, no trailing fractional zeros, no exponent),
 * or null when the text is not one (empty, negative, zero, "NaN", "1,5", too long).
 */
export function normalizePrice(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_LENGTH) return null;
  const match = DECIMAL.exec(trimmed);
  if (!match) return null;
  let digits = match[1]! + (match[2] ?? '');
  // The decimal point sits `point` digits from the left of `digits`.
  let point = match[1]!.length + Number(match[3] ?? '0');
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const integer = digits.slice(0, point).replace(/^0+/, '') || '0';
  const fraction = digits.slice(point).replace(/0+$/, '');
  if (integer === '0' && fraction === '') return null;
  const result = fraction ? `${integer}.${fraction}` : integer;
  return result.length > MAX_LENGTH ? null : result;
}

/** Both values as integers scaled by the same power of ten (inputs are normalised prices). */
function scaled(a: string, b: string): [bigint, bigint, number] {
  const [ai, af = ''] = a.split('.');
  const [bi, bf = ''] = b.split('.');
  const places = Math.max(af.length, bf.length);
  return [BigInt(ai! + af.padEnd(places, '0')), BigInt(bi! + bf.padEnd(places, '0')), places];
}

export function compareDecimal(a: string, b: string): number {
  const [x, y] = scaled(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Exact midpoint of two normalised prices (one more decimal place at most). */
export function meanOfTwo(a: string, b: string): string {
  const [x, y, places] = scaled(a, b);
  // (x + y) / 2 at one more place: ×5 instead of ÷2 keeps it an integer.
  const sum = (x + y) * 5n;
  const text = sum.toString().padStart(places + 2, '0');
  return normalizePrice(`${text.slice(0, -(places + 1))}.${text.slice(-(places + 1))}`) ?? '0';
}

/** The median of normalised prices; for an even count the exact mean of the middle two. */
export function medianDecimal(values: readonly string[]): string | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort(compareDecimal);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : meanOfTwo(sorted[mid - 1]!, sorted[mid]!);
}
