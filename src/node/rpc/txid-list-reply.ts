import { isAscii } from 'node:buffer';
import { txidKeyOfBytes, type TxidList } from '../../core/domain/txid-set.js';

const RESULT_KEY = '"result"';
const REPLY_END = /^[ \t\r\n]*,[ \t\r\n]*"error"[ \t\r\n]*:[ \t\r\n]*null[ \t\r\n]*,[ \t\r\n]*"id"[ \t\r\n]*:[ \t\r\n]*\d+[ \t\r\n]*\}[ \t\r\n]*$/;

/**
 * Reads a node's `getrawmempool` (non-verbose) reply, `{"result":["<txid>",...],"error":null,"id":N}`, where it lies in
 * the body's bytes: each txid's place and key (txid-set.ts), no JSON decode and no string per txid. A poll of a
 * 20,000-30,000-tx mempool spent 15-40 ms turning the 1.3-1.7 MB body into text, parsing it and hashing every txid, for
 * a list that had gained a few (docs/benchmarks.md, "Mempool at mainnet rates"); this walk of its bytes takes 1-3 ms.
 * Anything else (an error, escapes, another layout) gives null and is decoded as JSON.
 */
export function readTxidListReply(body: Buffer): TxidList | null {
  // `{"result":[`, with the spaces JSON allows between tokens (Core writes none).
  let i = skipSpace(body, 0);
  if (body[i] !== 0x7b) return null;
  i = skipSpace(body, i + 1);
  if (body.toString('latin1', i, i + RESULT_KEY.length) !== RESULT_KEY) return null;
  i = skipSpace(body, i + RESULT_KEY.length);
  if (body[i] !== 0x3a) return null;
  i = skipSpace(body, i + 1);
  if (body[i] !== 0x5b) return null;
  i++;
  // Escapes and bytes outside ASCII are not in txids: a list with any is not one of ours to read (one native pass each).
  if (body.indexOf(0x5c, i) >= 0 || !isAscii(body)) return null;
  // Plain typed arrays in the loop: indexing a Buffer and pushing to an array took four times as long.
  const bytes = new Uint8Array(body.buffer, body.byteOffset, body.length);
  const size = bytes.length;
  // Each txid's start and length, in turn; sized for Core's 64-digit txids (`"<txid>",`), grown if they are shorter.
  let places = new Int32Array(2 * Math.ceil(size / 67) + 16);
  let n = 0;
  i = skipSpace(body, i);
  if (bytes[i] === 0x5d) i++;
  else {
    for (;;) {
      if (bytes[i] !== 0x22) return null;
      const start = i + 1;
      let end = start;
      while (end < size && bytes[end] !== 0x22) end++;
      if (end >= size) return null;
      if (n + 2 > places.length) {
        const grown = new Int32Array(places.length * 2);
        grown.set(places);
        places = grown;
      }
      places[n++] = start;
      places[n++] = end - start;
      i = end + 1;
      // Core's `","` first: skipSpace is a call per txid otherwise.
      if (bytes[i] === 0x2c && bytes[i + 1] === 0x22) i++;
      else {
        i = skipSpace(body, i);
        if (bytes[i] === 0x2c) i = skipSpace(body, i + 1);
        else if (bytes[i] === 0x5d) {
          i++;
          break;
        } else return null;
      }
    }
  }
  // What follows the list: `,"error":null,"id":N}` (the id is ours, a number).
  if (body.length - i > 200 || !REPLY_END.test(body.toString('latin1', i))) return null;
  return new ByteTxidList(body, places.subarray(0, n));
}

function skipSpace(body: Buffer, i: number): number {
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x0a || body[i] === 0x0d || body[i] === 0x09)) i++;
  return i;
}

class ByteTxidList implements TxidList {
  readonly length: number;
  /** The body as a plain Uint8Array: faster to index than the Buffer. */
  private readonly bytes: Uint8Array;

  /** `places`: each txid's start and length, in turn. */
  constructor(
    private readonly body: Buffer,
    private readonly places: Int32Array,
  ) {
    this.length = places.length / 2;
    this.bytes = new Uint8Array(body.buffer, body.byteOffset, body.length);
  }

  /** Read when asked: a pass that has the previous list looks up only the few txids outside its runs. */
  key(i: number): number {
    return txidKeyOfBytes(this.bytes, this.places[2 * i]!, this.places[2 * i + 1]!);
  }

  matches(i: number, txid: string): boolean {
    const length = this.places[2 * i + 1]!;
    if (txid.length !== length) return false;
    const start = this.places[2 * i]!;
    const bytes = this.bytes;
    for (let k = 0; k < length; k++) if (bytes[start + k] !== txid.charCodeAt(k)) return false;
    return true;
  }

  txid(i: number): string {
    const start = this.places[2 * i]!;
    return this.body.toString('latin1', start, start + this.places[2 * i + 1]!);
  }

  commonRun(i: number, other: TxidList, j: number): number {
    const max = Math.min(this.length - i, other.length - j);
    if (!(other instanceof ByteTxidList)) {
      let k = 0;
      while (k < max && other.matches(j + k, this.txid(i + k))) k++;
      return k;
    }
    if (max <= 0 || !this.sameBytes(i, other, j, 1)) return 0;
    // Galloping, then halving: O(log run) compares, each of the txids past those already known equal.
    let equal = 1;
    let step = 2;
    while (step <= max && this.sameBytes(i + equal, other, j + equal, step - equal)) {
      equal = step;
      step *= 2;
    }
    let unequal = Math.min(step, max + 1);
    while (unequal - equal > 1) {
      const mid = (equal + unequal) >>> 1;
      if (this.sameBytes(i + equal, other, j + equal, mid - equal)) equal = mid;
      else unequal = mid;
    }
    return equal;
  }

  /**
   * Whether `count` txids from i and j are the same bytes, quotes and separators between them included: each range starts
   * at a txid and ends with one and no txid holds a quote or an escape, so equal bytes are equal txids in order.
   */
  private sameBytes(i: number, other: ByteTxidList, j: number, count: number): boolean {
    const start = this.places[2 * i]!;
    const end = this.places[2 * (i + count - 1)]! + this.places[2 * (i + count - 1) + 1]!;
    const otherStart = other.places[2 * j]!;
    const otherEnd = other.places[2 * (j + count - 1)]! + other.places[2 * (j + count - 1) + 1]!;
    return end - start === otherEnd - otherStart && this.body.compare(other.body, otherStart, otherEnd, start, end) === 0;
  }
}
