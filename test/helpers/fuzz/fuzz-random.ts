/**
 * The fuzz's source of randomness and its mutations: seeded (the same seed and case number give the same input, so
 * a failure names a case that replays), with the text that breaks parsers (bad percent-escapes, NUL, CR/LF, huge
 * values, non-UTF-8 bytes) and byte-level edits (flip, insert, delete, duplicate, truncate).
 */
import { seededRandom } from '../seeded-random.js';

/** Text that has broken parsers somewhere: each is inserted or substituted whole. */
export const HOSTILE_TEXT: readonly string[] = [
  '%', '%E0%A4%A', '%00', '%2F', '%ff', '%C0%AE', '%25', '%u0041', '%%', '%zz', '..', '../..', '//', ';', '\\', '?', '#', '&',
  '=', ' ', '\t', '\r\n', '\n', '\r', '\u0000', 'é', '\u{1F600}', '\u202E', '\uFFFF', '"', "'", '<script>', '{', '[', '}}',
  '0', '-1', '1e308', 'NaN', '99999999999999999999999999', '0x10', 'null', 'undefined', '__proto__', 'constructor',
  'true', '[]', '{"a":', 'A'.repeat(300), 'A'.repeat(5000), '%41'.repeat(1000),
];

/** Bytes that are not valid UTF-8 or are control characters. */
const HOSTILE_BYTES: readonly number[] = [0x00, 0x0a, 0x0d, 0x20, 0x25, 0x7f, 0x80, 0xc0, 0xc3, 0xe0, 0xed, 0xf0, 0xf8, 0xfe, 0xff];

export class FuzzRandom {
  private readonly next: () => number;

  /** One generator per (seed, case): case n's input does not depend on how many draws the cases before it made. */
  constructor(seed: number, caseNumber = 0) {
    this.next = seededRandom((Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(caseNumber + 1, 0xc2b2ae35)) >>> 0);
  }

  float(): number {
    return this.next();
  }

  /** 0 ≤ n < max. */
  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = this.chance(0.3) ? this.pick(HOSTILE_BYTES) : this.int(256);
    return out;
  }

  hostile(): string {
    return this.pick(HOSTILE_TEXT);
  }

  /** `text` with one hostile string inserted at, or substituted for a span at, a random place. */
  mutateText(text: string): string {
    const at = this.int(text.length + 1);
    switch (this.int(4)) {
      case 0:
        return text.slice(0, at) + this.hostile() + text.slice(at);
      case 1:
        return text.slice(0, at) + this.hostile() + text.slice(at + 1 + this.int(8));
      case 2:
        return text.slice(0, at);
      default:
        return text.slice(0, at) + text.slice(at, at + 1 + this.int(16)).repeat(2 + this.int(3)) + text.slice(at);
    }
  }

  /** 1 to `maxEdits` byte-level edits of `input` (a copy). */
  mutateBytes(input: Buffer, maxEdits = 4): Buffer {
    let out = Buffer.from(input);
    for (let edits = 1 + this.int(maxEdits); edits > 0; edits--) {
      const at = this.int(out.length + 1);
      switch (this.int(6)) {
        case 0:
          if (out.length > 0) out[Math.min(at, out.length - 1)]! ^= 1 << this.int(8);
          break;
        case 1:
          if (out.length > 0) out[Math.min(at, out.length - 1)] = this.pick(HOSTILE_BYTES);
          break;
        case 2:
          out = Buffer.concat([out.subarray(0, at), this.bytes(1 + this.int(8)), out.subarray(at)]);
          break;
        case 3:
          out = Buffer.concat([out.subarray(0, at), out.subarray(at + 1 + this.int(16))]);
          break;
        case 4:
          out = Buffer.concat([out.subarray(0, at), out.subarray(at, at + 1 + this.int(32)), out.subarray(at)]);
          break;
        default:
          out = out.subarray(0, at);
      }
    }
    return out;
  }
}

/** An input for a failure message: printable, escaped, cut to `max` characters. */
export function showInput(bytes: Buffer | string, max = 600): string {
  const text = typeof bytes === 'string' ? bytes : bytes.toString('latin1');
  const shown = JSON.stringify(text.length > max ? `${text.slice(0, max)}…(${text.length} bytes)` : text);
  return shown;
}
