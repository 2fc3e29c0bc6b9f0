/**
 * Scripts are keyed by a 53-bit keyed hash of their bytes (SipHash-1-3 with a per-database secret salt), so writing an
 * output never has to look its script up to number it (the bulk loader writes outputs without any index), and a
 * key is a plain JavaScript number.
 *
 * Collisions are expected at mainnet scale (about n^2 / 2^54 pairs among n scripts: a few hundred among Bitcoin's
 * billions) and handled, never assumed away: the scripts table stores every script's bytes, a script whose key is
 * taken by other bytes takes the next free key (linear probing; script rows are never deleted, so a probe sequence
 * never changes), and every lookup compares bytes. The salt keeps anyone from making many scripts that collide on
 * purpose (long probe sequences would only slow lookups down, never give a wrong answer).
 */

export const KEY_SPACE = 2 ** 53;

/**
 * The base keys' width in a store made by this version (meta.script_key_bits): 47 bits, so every key fits SQLite's
 * 6-byte integer (it stores 2^47 and above in 8). A key is written about 13 times per transaction (history rows,
 * outputs, the unspent index, the scripts' own key), so this saves ~26 B/tx on disk (docs/benchmarks.md, issue 33).
 * Collisions among n scripts: ~n^2 / 2^48 pairs, a few thousand among Bitcoin's ~1-2 billion scripts, each settled
 * by one more probe (above). PostgreSQL's BIGINT is 8 bytes either way; the width is the same on both engines so a
 * snapshot moves between them.
 */
export const NEW_STORE_KEY_BITS = 47;
/** The width of a store made before meta.script_key_bits existed (the whole 53-bit space). */
export const LEGACY_KEY_BITS = 53;

/** The width a meta row records (a store without the row predates it: 53). */
export function storedKeyBits(value: unknown): number {
  const bits = Number(value ?? LEGACY_KEY_BITS);
  if (!Number.isInteger(bits) || bits < 1 || bits > LEGACY_KEY_BITS) throw new RangeError(`script_key_bits ${String(value)} is not 1-53`);
  return bits;
}

/** The next key of a probe sequence. */
export function nextKey(key: number): number {
  return key + 1 === KEY_SPACE ? 0 : key + 1;
}

/** SipHash with c compression and d finalisation rounds over 32-bit halves (JavaScript has no fast 64-bit integers). */
export class SipHash {
  private readonly k0h: number;
  private readonly k0l: number;
  private readonly k1h: number;
  private readonly k1l: number;

  /** `key`: 16 bytes. */
  constructor(key: Uint8Array, private readonly c = 1, private readonly d = 3) {
    if (key.length !== 16) throw new RangeError('SipHash key must be 16 bytes');
    this.k0l = le32(key, 0);
    this.k0h = le32(key, 4);
    this.k1l = le32(key, 8);
    this.k1h = le32(key, 12);
  }

  /** The 64-bit hash as [high 32 bits, low 32 bits]. */
  hash(data: Uint8Array, out: Uint32Array = new Uint32Array(2)): Uint32Array {
    const s = state;
    s[0] = (this.k0h ^ 0x736f6d65) >>> 0; s[1] = (this.k0l ^ 0x70736575) >>> 0;
    s[2] = (this.k1h ^ 0x646f7261) >>> 0; s[3] = (this.k1l ^ 0x6e646f6d) >>> 0;
    s[4] = (this.k0h ^ 0x6c796765) >>> 0; s[5] = (this.k0l ^ 0x6e657261) >>> 0;
    s[6] = (this.k1h ^ 0x74656462) >>> 0; s[7] = (this.k1l ^ 0x79746573) >>> 0;
    const len = data.length;
    const whole = len - (len % 8);
    for (let i = 0; i < whole; i += 8) this.compress(le32(data, i + 4), le32(data, i));
    // The last word: the remaining bytes, little-endian, with the length's low byte on top.
    let lo = 0;
    let hi = (len & 0xff) << 24;
    for (let i = whole; i < len; i++) {
      const shift = (i - whole) * 8;
      if (shift < 32) lo |= data[i]! << shift;
      else hi |= data[i]! << (shift - 32);
    }
    this.compress(hi >>> 0, lo >>> 0);
    s[5] = (s[5]! ^ 0xff) >>> 0;
    for (let r = 0; r < this.d; r++) round(s);
    out[0] = (s[0]! ^ s[2]! ^ s[4]! ^ s[6]!) >>> 0;
    out[1] = (s[1]! ^ s[3]! ^ s[5]! ^ s[7]!) >>> 0;
    return out;
  }

  private compress(mh: number, ml: number): void {
    const s = state;
    s[6] = (s[6]! ^ mh) >>> 0; s[7] = (s[7]! ^ ml) >>> 0;
    for (let r = 0; r < this.c; r++) round(s);
    s[0] = (s[0]! ^ mh) >>> 0; s[1] = (s[1]! ^ ml) >>> 0;
  }
}

/** v0..v3 as (high, low) pairs: indexes 0-1, 2-3, 4-5, 6-7. */
const state = new Uint32Array(8);

function le32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

/** One SipRound on the state (64-bit add, rotate, xor, spelled out on 32-bit halves). */
function round(s: Uint32Array): void {
  let v0h = s[0]!, v0l = s[1]!, v1h = s[2]!, v1l = s[3]!, v2h = s[4]!, v2l = s[5]!, v3h = s[6]!, v3l = s[7]!;
  let lo: number, t: number;
  // v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32)
  lo = (v0l + v1l) >>> 0; v0h = (v0h + v1h + (lo < v0l ? 1 : 0)) >>> 0; v0l = lo;
  t = v1h; v1h = ((v1h << 13) | (v1l >>> 19)) >>> 0; v1l = ((v1l << 13) | (t >>> 19)) >>> 0;
  v1h = (v1h ^ v0h) >>> 0; v1l = (v1l ^ v0l) >>> 0;
  t = v0h; v0h = v0l; v0l = t;
  // v2 += v3; v3 = rotl(v3, 16); v3 ^= v2
  lo = (v2l + v3l) >>> 0; v2h = (v2h + v3h + (lo < v2l ? 1 : 0)) >>> 0; v2l = lo;
  t = v3h; v3h = ((v3h << 16) | (v3l >>> 16)) >>> 0; v3l = ((v3l << 16) | (t >>> 16)) >>> 0;
  v3h = (v3h ^ v2h) >>> 0; v3l = (v3l ^ v2l) >>> 0;
  // v0 += v3; v3 = rotl(v3, 21); v3 ^= v0
  lo = (v0l + v3l) >>> 0; v0h = (v0h + v3h + (lo < v0l ? 1 : 0)) >>> 0; v0l = lo;
  t = v3h; v3h = ((v3h << 21) | (v3l >>> 11)) >>> 0; v3l = ((v3l << 21) | (t >>> 11)) >>> 0;
  v3h = (v3h ^ v0h) >>> 0; v3l = (v3l ^ v0l) >>> 0;
  // v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32)
  lo = (v2l + v1l) >>> 0; v2h = (v2h + v1h + (lo < v2l ? 1 : 0)) >>> 0; v2l = lo;
  t = v1h; v1h = ((v1h << 17) | (v1l >>> 15)) >>> 0; v1l = ((v1l << 17) | (t >>> 15)) >>> 0;
  v1h = (v1h ^ v2h) >>> 0; v1l = (v1l ^ v2l) >>> 0;
  t = v2h; v2h = v2l; v2l = t;
  s[0] = v0h; s[1] = v0l; s[2] = v1h; s[3] = v1l; s[4] = v2h; s[5] = v2l; s[6] = v3h; s[7] = v3l;
}

/** A salt and a key width: plain data that crosses threads. */
export interface ScriptKeyParams {
  readonly salt: Uint8Array;
  readonly bits: number;
}

/** A network's script keys: the base key of a script (where its probe sequence starts). */
export class ScriptKeys {
  private readonly sip: SipHash;
  private readonly out = new Uint32Array(2);

  /**
   * `salt`: the database's 16-byte secret (hex in meta.script_key_salt). `bits`: the base keys' width
   * (meta.script_key_bits; tests narrow it further to make collisions). Probe sequences may step past 2^bits: those
   * keys are as valid, only stored wider.
   */
  constructor(salt: Uint8Array, private readonly bits: number) {
    this.sip = new SipHash(salt);
    this.params = { salt: Uint8Array.from(salt), bits };
  }

  /** What makes these keys again elsewhere (`ScriptKeys.from`), e.g. on the worker thread of an initial load. */
  readonly params: ScriptKeyParams;

  static from(params: ScriptKeyParams): ScriptKeys {
    return new ScriptKeys(params.salt, params.bits);
  }

  base(script: Uint8Array): number {
    const [hi, lo] = this.sip.hash(script, this.out) as unknown as [number, number];
    const key = (hi & 0x1fffff) * 0x1_0000_0000 + lo;
    return this.bits >= 53 ? key : key % 2 ** this.bits;
  }
}
