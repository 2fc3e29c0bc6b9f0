/**
 * Txid sets that a node's txid list can be checked against without a string per listed txid.
 *
 * A poll diffs the node's whole `getrawmempool` list (20,000-30,000 txids on a mainnet-sized mempool) against what is
 * stored. Decoding the list's JSON made a fresh string of every txid and looking each up in a Set hashed all of them
 * again: 15-40 ms of the event loop at every poll (10 polls a second at poll_ms 100) for a list that had gained a few
 * txids (docs/benchmarks.md, "Mempool at mainnet rates"). Here a txid is found by a number read from its first hex
 * digits (a Map of small integers does not hash text) and confirmed by comparing its characters where they lie; only the txids
 * not found become strings.
 */

/**
 * Hex digits a key is read from: 7 x 4 = 28 bits, a small integer to V8 (a Map of them hashes no heap numbers). Keys of
 * 30,000 txids rarely coincide, and those that do are told apart by text.
 */
const KEY_DIGITS = 7;
/** The key of text that does not start with KEY_DIGITS hex digits: such txids share it and are told apart by text. */
export const NO_KEY = -1;

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/** The number of a txid's first KEY_DIGITS hex digits (case-insensitive: the text comparison decides), or NO_KEY. */
export function txidKey(txid: string): number {
  if (txid.length < KEY_DIGITS) return NO_KEY;
  let key = 0;
  for (let i = 0; i < KEY_DIGITS; i++) {
    const v = hexValue(txid.charCodeAt(i));
    if (v < 0) return NO_KEY;
    key = key * 16 + v;
  }
  return key;
}

/** The same key read from bytes (ASCII text in a buffer). */
export function txidKeyOfBytes(bytes: Uint8Array, start: number, length: number): number {
  if (length < KEY_DIGITS) return NO_KEY;
  let key = 0;
  for (let i = 0; i < KEY_DIGITS; i++) {
    const v = hexValue(bytes[start + i]!);
    if (v < 0) return NO_KEY;
    key = key * 16 + v;
  }
  return key;
}

/** A list of txids (the node's mempool) read by position; `txid(i)` makes the string, the rest do not. */
export interface TxidList {
  readonly length: number;
  key(i: number): number;
  /** Whether the i-th txid is exactly `txid` (whose key is the i-th's). */
  matches(i: number, txid: string): boolean;
  txid(i: number): string;
  /**
   * How many txids from this list's i-th on equal, in order, those from `other`'s j-th on. A list in a node's reply
   * compares runs of its bytes with the previous reply's (a few native compares per run, no per-txid work): between
   * two polls most of the list is the same txids in the same order.
   */
  commonRun(i: number, other: TxidList, j: number): number;
}

/** A TxidList over strings (sources that have them already, tests). */
export function txidListOf(txids: readonly string[]): TxidList {
  return {
    length: txids.length,
    key: (i) => txidKey(txids[i]!),
    matches: (i, txid) => txids[i] === txid,
    txid: (i) => txids[i]!,
    commonRun(i, other, j) {
      let k = 0;
      while (i + k < txids.length && j + k < other.length && other.matches(j + k, txids[i + k]!)) k++;
      return k;
    },
  };
}

/** Every txid of a list, as strings. */
export function txidsOf(list: TxidList): string[] {
  const out = new Array<string>(list.length);
  for (let i = 0; i < list.length; i++) out[i] = list.txid(i);
  return out;
}

/** A set of txid strings, also asked by list position (`hasAt`) without a string for the listed txid. */
export class TxidSet implements Iterable<string> {
  /** By key: one txid, or the several whose keys are equal (text that is not hex, or the same first digits). */
  private readonly byKey = new Map<number, string | string[]>();
  private count = 0;

  constructor(txids: Iterable<string> = []) {
    for (const txid of txids) this.add(txid);
  }

  get size(): number {
    return this.count;
  }

  has(txid: string): boolean {
    const found = this.byKey.get(txidKey(txid));
    if (found === undefined) return false;
    return typeof found === 'string' ? found === txid : found.includes(txid);
  }

  /** Whether the list's i-th txid is in the set. */
  hasAt(list: TxidList, i: number): boolean {
    const found = this.byKey.get(list.key(i));
    if (found === undefined) return false;
    if (typeof found === 'string') return list.matches(i, found);
    return found.some((txid) => list.matches(i, txid));
  }

  add(txid: string): void {
    const key = txidKey(txid);
    const found = this.byKey.get(key);
    if (found === undefined) this.byKey.set(key, txid);
    else if (typeof found === 'string') {
      if (found === txid) return;
      this.byKey.set(key, [found, txid]);
    } else {
      if (found.includes(txid)) return;
      found.push(txid);
    }
    this.count++;
  }

  delete(txid: string): boolean {
    const key = txidKey(txid);
    const found = this.byKey.get(key);
    if (found === undefined) return false;
    if (typeof found === 'string') {
      if (found !== txid) return false;
      this.byKey.delete(key);
    } else {
      const at = found.indexOf(txid);
      if (at < 0) return false;
      found.splice(at, 1);
      if (found.length === 1) this.byKey.set(key, found[0]!);
    }
    this.count--;
    return true;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (const found of this.byKey.values()) {
      if (typeof found === 'string') yield found;
      else yield* found;
    }
  }
}
