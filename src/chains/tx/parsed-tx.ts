/**
 * The objects the tx parser returns: plain fields for what every consumer reads, views and the wtxid made on
 * first access. Plus the txid/wtxid hashing helpers they share with the parser.
 */
import type { Transaction, TxInput, TxOutput } from '../../core/domain/chain-types.js';
import { ByteReader } from '../bytes/byte-reader.js';
import { sha256dDisplayHex } from '../hash.js';

export const WITNESS_FLAG = 0x01;
const EMPTY_WITNESS: readonly Uint8Array[] = Object.freeze([]);

// Segwit/MWEB txids hash a non-contiguous preimage; copying it into one scratch buffer and
// hashing once is cheaper than three update() calls on a streaming hash object.
let scratch = new Uint8Array(1 << 16);

export function sha256dHex(data: Uint8Array): string {
  return sha256dDisplayHex(data);
}

export function sha256dJoinedHex(version: Uint8Array, middle: Uint8Array, locktime: Uint8Array, flag: number): string {
  const extra = flag ? 2 : 0;
  const n = 8 + extra + middle.length;
  if (n > scratch.length) scratch = new Uint8Array(Math.max(n, scratch.length * 2));
  scratch.set(version, 0);
  if (flag) {
    scratch[4] = 0;
    scratch[5] = flag;
  }
  scratch.set(middle, 4 + extra);
  scratch.set(locktime, 4 + extra + middle.length);
  return sha256dHex(scratch.subarray(0, n));
}

/**
 * An input as parsed. The fields every consumer reads are plain properties; scriptSig and witness are views
 * made on first access (most consumers, the indexer among them, never read them: no allocation for them).
 */
export class ParsedInput implements TxInput {
  readonly prevTxid: string;
  readonly prevVout: number;
  readonly sequence: number;
  readonly #bytes: Uint8Array;
  readonly #scriptAt: number;
  readonly #scriptLen: number;
  /** Offset of this input's witness stack (its item count), -1 when it has none. */
  #witnessAt = -1;
  #scriptSig: Uint8Array | null = null;
  #witness: readonly Uint8Array[] | null = null;

  constructor(prevTxid: string, prevVout: number, sequence: number, bytes: Uint8Array, scriptAt: number, scriptLen: number) {
    this.prevTxid = prevTxid;
    this.prevVout = prevVout;
    this.sequence = sequence;
    this.#bytes = bytes;
    this.#scriptAt = scriptAt;
    this.#scriptLen = scriptLen;
  }

  get scriptSig(): Uint8Array {
    return (this.#scriptSig ??= this.#bytes.subarray(this.#scriptAt, this.#scriptAt + this.#scriptLen));
  }

  get witness(): readonly Uint8Array[] {
    if (this.#witness === null) this.#witness = this.#witnessAt < 0 ? EMPTY_WITNESS : readStack(this.#bytes, this.#witnessAt);
    return this.#witness;
  }

  /** Set by the parser once the witness section has been validated. */
  setWitnessAt(at: number): void {
    this.#witnessAt = at;
  }
}

/** Re-reads a witness stack the parser already validated. */
function readStack(bytes: Uint8Array, at: number): Uint8Array[] {
  const r = new ByteReader(bytes, at);
  const items = r.compactSize();
  const stack = new Array<Uint8Array>(items);
  for (let j = 0; j < items; j++) stack[j] = r.varBytes();
  return stack;
}

/** Transaction with an on-demand wtxid (the indexer never needs it; a segwit wtxid costs a second hash of the tx). */
export class ParsedTransaction implements Transaction {
  readonly txid: string;
  readonly version: number;
  readonly locktime: number;
  readonly inputs: readonly TxInput[];
  readonly outputs: readonly TxOutput[];
  readonly size: number;
  readonly weight: number;
  readonly vsize: number;
  readonly hasWitness: boolean;
  readonly isCoinbase: boolean;
  readonly isHogEx: boolean;
  readonly hasMwebBody: boolean;
  readonly raw: Uint8Array;
  #wtxid: string | null;
  /** For the wtxid of an MWEB-flagged witness tx: where the inputs start and the witness data ends. */
  readonly #regionStart: number;
  readonly #witnessEnd: number;
  readonly #bytes: Uint8Array;

  constructor(
    txid: string, wtxid: string | null, version: number, locktime: number, inputs: TxInput[], outputs: TxOutput[],
    raw: Uint8Array, weight: number, hasWitness: boolean, isCoinbase: boolean, isHogEx: boolean, hasMwebBody: boolean,
    bytes: Uint8Array, regionStart: number, witnessEnd: number,
  ) {
    this.txid = txid;
    this.version = version;
    this.locktime = locktime;
    this.inputs = inputs;
    this.outputs = outputs;
    this.size = raw.length;
    this.weight = weight;
    this.vsize = Math.ceil(weight / 4);
    this.hasWitness = hasWitness;
    this.isCoinbase = isCoinbase;
    this.isHogEx = isHogEx;
    this.hasMwebBody = hasMwebBody;
    this.raw = raw;
    this.#wtxid = wtxid;
    this.#bytes = bytes;
    this.#regionStart = regionStart;
    this.#witnessEnd = witnessEnd;
  }

  get wtxid(): string {
    if (this.#wtxid === null) {
      const raw = this.raw;
      // Only witness txs get here: with MWEB data the wtxid preimage is the tx without it, else the raw bytes.
      this.#wtxid = this.#witnessEnd >= 0
        ? sha256dJoinedHex(raw.subarray(0, 4), this.#bytes.subarray(this.#regionStart, this.#witnessEnd), raw.subarray(raw.length - 4), WITNESS_FLAG)
        : sha256dHex(raw);
    }
    return this.#wtxid;
  }
}

