/**
 * Builds Block/Transaction objects directly (no parser): store tests need valid shapes and unique ids,
 * not real proof of work. Txids are deterministic hashes of a counter and the tx contents.
 */
import { createHash } from 'node:crypto';
import type { Block, Transaction, TxInput } from '../../core/domain/chain-types.js';
import { parseTransaction } from '../../chains/tx/tx-parser.js';
import { serializeTransaction } from '../../chains/tx/tx-serializer.js';

const ZERO = '0'.repeat(64);

export interface OutSpec {
  readonly script: Uint8Array;
  readonly value: bigint;
}

export function p2pkh(tag: number): Uint8Array {
  const hash = createHash('sha256').update(`script-${tag}`).digest().subarray(0, 20);
  return Uint8Array.from([0x76, 0xa9, 0x14, ...hash, 0x88, 0xac]);
}

let counter = 0;
function uniqueHash(label: string): string {
  counter += 1;
  return createHash('sha256').update(`${label}-${counter}-${process.pid}`).digest('hex');
}

/**
 * A real serialization (so the raw bytes parse, as the store's rare paths that read raw txs need), made unique by its
 * locktime; values beyond what a serialization holds (tests of sums past 2^64) fall back to an unparseable stand-in.
 */
function makeTx(inputs: TxInput[], outputs: readonly OutSpec[], isCoinbase: boolean): Transaction {
  counter += 1;
  const draft: Transaction = {
    txid: '', wtxid: '', version: 2, locktime: counter, inputs, outputs: outputs.map((o) => ({ value: o.value, script: o.script })),
    size: 0, weight: 0, vsize: 0, hasWitness: false, isCoinbase, isHogEx: false, hasMwebBody: false, raw: new Uint8Array(),
  };
  if (outputs.every((o) => o.value >= 0n && o.value < 2n ** 63n)) {
    return parseTransaction(serializeTransaction(draft));
  }
  const txid = uniqueHash('tx');
  const raw = Buffer.concat([Buffer.from(txid, 'hex'), Buffer.from([inputs.length, outputs.length])]);
  return {
    txid, wtxid: txid, version: 2, locktime: 0, inputs, outputs: outputs.map((o) => ({ value: o.value, script: o.script })),
    size: 100 + 40 * inputs.length + 30 * outputs.length, weight: 4 * (100 + 40 * inputs.length + 30 * outputs.length),
    vsize: 100 + 40 * inputs.length + 30 * outputs.length, hasWitness: false, isCoinbase, isHogEx: false, hasMwebBody: false, raw,
  };
}

export function coinbase(outputs: readonly OutSpec[]): Transaction {
  return makeTx([{ prevTxid: ZERO, prevVout: 0xffffffff, scriptSig: new Uint8Array([1, 2]), sequence: 0xffffffff, witness: [] }], outputs, true);
}

export function spend(prevouts: readonly { txid: string; vout: number }[], outputs: readonly OutSpec[]): Transaction {
  return makeTx(prevouts.map((p) => ({ prevTxid: p.txid, prevVout: p.vout, scriptSig: new Uint8Array(), sequence: 0xfffffffe, witness: [] })), outputs, false);
}

export function block(prevHash: string, txs: readonly Transaction[], time = 1_600_000_000): Block {
  const hash = uniqueHash('block');
  const size = 80 + txs.reduce((s, t) => s + t.size, 0);
  return {
    header: { hash, version: 0x20000000, prevHash, merkleRoot: uniqueHash('merkle'), time, bits: 0x207fffff, nonce: 7, raw: new Uint8Array(80) },
    auxpow: null, txs, mweb: null, size, strippedSize: size, weight: size * 4, raw: new Uint8Array(size),
  };
}

/** A linear chain of blocks kept in memory so tests can extend and fork it. */
export class ChainBuilder {
  readonly blocks: { height: number; block: Block }[] = [];
  private time = 1_600_000_000;

  get tipHash(): string {
    return this.blocks.at(-1)?.block.header.hash ?? ZERO;
  }

  get nextHeight(): number {
    return this.blocks.length;
  }

  /** Adds a block with a coinbase paying `reward` to `minerScript` plus the given txs. */
  add(minerScript: Uint8Array, reward: bigint, txs: readonly Transaction[] = []): { height: number; block: Block } {
    this.time += 60;
    const entry = { height: this.nextHeight, block: block(this.tipHash, [coinbase([{ script: minerScript, value: reward }]), ...txs], this.time) };
    this.blocks.push(entry);
    return entry;
  }

  /** A copy sharing the first `height` blocks (for forks). */
  forkAt(height: number): ChainBuilder {
    const fork = new ChainBuilder();
    fork.blocks.push(...this.blocks.slice(0, height));
    fork.time = this.time + 1;
    return fork;
  }
}
