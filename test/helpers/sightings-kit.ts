/**
 * Test kit for the sightings code: real serialized transactions (parseable, with true txids) and an in-memory index
 * standing in for the store's reader (only what the sightings code reads: transactions and outputs with spenders).
 */
import { createHash } from 'node:crypto';
import type { NetworkReader, OutputRecord, PrevoutInfo, SpendRef, Transaction, TxRecord, TxStatus } from '../../src/core/index.js';
import { ByteWriter, parseTransaction } from '../../src/chains/parsing.js';
import { fromDisplayHex } from '../../src/chains/hash.js';

export function script(tag: string): Uint8Array {
  const hash = createHash('sha256').update(tag).digest().subarray(0, 20);
  return Uint8Array.from([0x00, 0x14, ...hash]);
}

export interface InputSpec {
  readonly txid: string;
  readonly vout: number;
  /** Default 0xfffffffe (no BIP125 signal). */
  readonly sequence?: number;
}

/** A legacy-serialized tx (parsed back, so txid, sizes and raw are exactly what a peer would send). */
export function makeTx(inputs: readonly InputSpec[], outputs: readonly { value: bigint; script: Uint8Array }[], locktime = 0): Transaction {
  const w = new ByteWriter();
  w.i32(2).compactSize(inputs.length);
  for (const i of inputs) w.bytes(fromDisplayHex(i.txid)).u32(i.vout).varBytes(Uint8Array.of(0x51)).u32(i.sequence ?? 0xfffffffe);
  w.compactSize(outputs.length);
  for (const o of outputs) w.i64(o.value).varBytes(o.script);
  w.u32(locktime);
  return parseTransaction(w.finish());
}

interface Stored {
  tx: Transaction;
  status: TxStatus;
  height: number | null;
  prevouts: (PrevoutInfo | null)[];
  fee: bigint | null;
  doubleSpent: boolean;
}

/** The part of the index the sightings code reads, kept in memory and edited by the test like the indexer would. */
export class MemoryIndex {
  readonly txs = new Map<string, Stored>();

  /** A confirmed funding tx paying `values` to fresh scripts (its outputs are what the tests spend). */
  fund(...values: bigint[]): Transaction {
    const tx = makeTx([{ txid: createHash('sha256').update(`fund-${this.txs.size}`).digest('hex'), vout: 0 }], values.map((value, i) => ({ value, script: script(`f${this.txs.size}-${i}`) })));
    this.put(tx, 'confirmed', 1);
    return tx;
  }

  put(tx: Transaction, status: TxStatus, height: number | null = null): void {
    const prevouts = tx.inputs.map((i) => this.output(i.prevTxid, i.prevVout));
    const known = prevouts.every((p) => p !== null);
    const fee = known && !tx.isCoinbase ? prevouts.reduce((s, p) => s + p!.value, 0n) - tx.outputs.reduce((s, o) => s + o.value, 0n) : null;
    this.txs.set(tx.txid, { tx, status, height, prevouts, fee, doubleSpent: false });
  }

  setStatus(txid: string, status: TxStatus, height: number | null = null): void {
    const stored = this.txs.get(txid)!;
    stored.status = status;
    stored.height = height;
  }

  reader(): NetworkReader {
    const unused = (): never => {
      throw new Error('not used by the sightings code');
    };
    return {
      getTransaction: async (txid) => this.record(txid),
      getOutputs: async (txid) => this.outputs(txid),
      getTip: unused, getMainChainHash: unused, getAddressTotals: unused, getAddressHistory: unused, getUnspent: unused,
      getBlockByHash: unused, getBlockByHeight: unused, getBlockHeaders: unused, getMempoolInfo: unused, getMempoolEntries: unused, getMempoolEntriesOf: unused, getMempoolTxids: unused, getSyncStatus: unused, findHashPrefix: unused,
      scriptSets: { getScriptTotals: unused, getScriptSetTxCount: unused, getScriptSetSummary: unused, getScriptSetFlows: unused, getScriptSetHistory: unused, getScriptSetUnspent: unused },
    } as NetworkReader;
  }

  private output(txid: string, vout: number): PrevoutInfo | null {
    const o = this.txs.get(txid)?.tx.outputs[vout];
    return o ? { txid, vout, value: o.value, script: o.script } : null;
  }

  private record(txid: string): TxRecord | null {
    const s = this.txs.get(txid);
    if (!s) return null;
    return {
      txid, raw: s.tx.raw, status: s.status, height: s.height, blockHash: null, blockTime: null, position: null, seenAt: 1, time: 1, fee: s.fee,
      size: s.tx.size, vsize: s.tx.vsize, weight: s.tx.weight, isCoinbase: s.tx.isCoinbase, doubleSpent: s.doubleSpent, prevouts: s.prevouts,
    };
  }

  /** As the store answers: null unless confirmed or live; each output's confirmed spender, else a live one. */
  private outputs(txid: string): OutputRecord[] | null {
    const s = this.txs.get(txid);
    if (!s || (s.status !== 'confirmed' && s.status !== 'mempool')) return null;
    return s.tx.outputs.map((o, vout) => ({ vout, value: o.value, script: o.script, spentBy: this.spender(txid, vout) }));
  }

  private spender(txid: string, vout: number): SpendRef | null {
    let live: SpendRef | null = null;
    for (const s of this.txs.values()) {
      const vin = s.tx.inputs.findIndex((i) => i.prevTxid === txid && i.prevVout === vout);
      if (vin < 0) continue;
      if (s.status === 'confirmed') return { txid: s.tx.txid, vin, confirmed: true };
      if (s.status === 'mempool') live ??= { txid: s.tx.txid, vin, confirmed: false };
    }
    return live;
  }
}
