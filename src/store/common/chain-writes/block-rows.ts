/**
 * Turns a batch of blocks into the rows the incremental writer stores (compact chain layout, chain-tables.ts): tx
 * rows, output rows (spends inside the batch already set), one history row per (script, tx) pair, per-script total
 * deltas and the per-block summaries the indexer publishes. The driver numbers the txs, resolves the batch's output
 * scripts to keys and its external prevouts (batch-needs.ts) before calling this; building does no lookup.
 * Hot path while following the chain, so the many per-output rows are columns (parallel arrays, sized up front) and
 * per-script sums live in the array slots of a ScriptTally.
 */
import { StoreError } from '../../../core/domain/errors.js';
import type { Block, TxInput, TxOutput, ChainTip, PrevoutInfo, ScriptDelta } from '../../../core/domain/chain-types.js';
import type { BlockToConnect, ConnectedBlock } from '../../../core/store/chain-writes.js';
import { missingPrevoutError, type BatchNeeds } from './batch-needs.js';
import { hexToBytes, viewBytes } from '../schema/codec.js';
import { FUNDS, ScriptTally, SPENDS, TxEffectSlots, type TotalsDelta } from './tx-effects.js';

/** An output an external prevout resolved to. */
export interface ResolvedOutput {
  /** The id of the tx that created it. */
  readonly id: number;
  readonly value: bigint;
  readonly scriptKey: number;
  readonly script: Uint8Array;
}

export interface BlockRow {
  hash: Buffer; height: number; prevHash: Buffer; merkleRoot: Buffer; version: number; time: number;
  bits: number; nonce: number; size: number; strippedSize: number; weight: number; txCount: number; firstTx: number;
  fees: bigint; reward: bigint; valueOut: bigint;
}

export interface TxRow {
  id: number; txid: Buffer; txidHex: string; size: number; weight: number; raw: Buffer;
  /** Filled by the driver from the mempool row the block confirms. */
  firstSeen: number | null;
}

/** Outputs created by the batch, one index per output (spends inside the batch already set). */
export interface OutputColumns {
  id: number[]; vout: number[]; value: bigint[]; script: number[]; spentBy: (number | null)[]; spentVin: (number | null)[];
}

/** One row per (script, tx) pair: flags FUNDS (an output pays the script) | SPENDS (an input spends from it). */
export interface HistoryColumns {
  script: number[]; id: number[]; flags: number[];
}

export interface BatchRows {
  blocks: BlockRow[];
  txs: TxRow[];
  outputs: OutputColumns;
  history: HistoryColumns;
  totals: TotalsDelta[];
  summaries: Omit<ConnectedBlock, 'confirmedFromMempool' | 'conflicted'>[];
  newTip: ChainTip;
}

export interface BatchKeys {
  /** Per tx in batch order: its id. */
  readonly txIds: readonly number[];
  /** Output scripts (by scriptKey string, as needs.scripts) to their keys. */
  readonly scriptKeys: ReadonlyMap<string, number>;
  /** Per external prevout (needs.externalPrevouts order): what it resolved to. */
  readonly external: readonly (ResolvedOutput | undefined)[];
}

export function buildBatchRows(blocks: readonly BlockToConnect[], needs: BatchNeeds, keys: BatchKeys): BatchRows {
  const builder = new BatchBuilder(needs, keys);
  for (const { height, block } of blocks) builder.addBlock(height, block);
  return builder.finish();
}

/** Per distinct output script (needs.outputScripts numbering): its tally local. */
function outputScriptLocals(needs: BatchNeeds, scriptKeys: ReadonlyMap<string, number>, tally: ScriptTally): Int32Array {
  const locals = new Int32Array(needs.scripts.size);
  let n = 0;
  for (const [key, script] of needs.scripts) {
    const resolved = scriptKeys.get(key);
    if (resolved === undefined) throw new StoreError('script key not resolved for an output of the batch');
    locals[n++] = tally.local(resolved, script);
  }
  return locals;
}

/** The state of one buildBatchRows call: blocks are added in order, each tx's rows filled in place. */
class BatchBuilder {
  private readonly rows: BatchRows;
  private readonly out: OutputColumns;
  private readonly hist: HistoryColumns;
  private readonly tally: ScriptTally;
  private readonly effects: TxEffectSlots;
  private readonly scriptLocals: Int32Array;
  /** Per external prevout: the tally local of its script (-1 when unresolved). */
  private readonly externalLocals: Int32Array;
  /** Per output of the batch: its tally local (how an in-batch spend finds the script). */
  private readonly outputLocals: Int32Array;
  private txIndex = 0;
  private inputAt = 0;
  private outAt = 0;

  constructor(private readonly needs: BatchNeeds, private readonly keys: BatchKeys) {
    const outputCount = needs.outputScripts.length;
    this.out = {
      id: new Array<number>(outputCount), vout: new Array<number>(outputCount), value: new Array<bigint>(outputCount),
      script: new Array<number>(outputCount), spentBy: new Array<number | null>(outputCount), spentVin: new Array<number | null>(outputCount),
    };
    this.hist = { script: [], id: [], flags: [] };
    this.rows = { blocks: [], txs: new Array<TxRow>(needs.txids.length), outputs: this.out, history: this.hist, totals: [], summaries: [], newTip: { height: -1, hash: '' } };
    this.tally = new ScriptTally(needs.scripts.size + needs.externalKeys.length);
    this.scriptLocals = outputScriptLocals(needs, keys.scriptKeys, this.tally);
    this.externalLocals = new Int32Array(keys.external.length);
    keys.external.forEach((r, i) => { this.externalLocals[i] = r === undefined ? -1 : this.tally.local(r.scriptKey, r.script); });
    this.effects = new TxEffectSlots(this.tally.size);
    this.outputLocals = new Int32Array(outputCount);
  }

  addBlock(height: number, block: Block): void {
    const h = block.header;
    const firstTx = this.keys.txIds[this.txIndex]!;
    let fees = 0n;
    let reward = 0n;
    let valueOut = 0n;
    const deltas: ScriptDelta[] = [];
    const prevouts = new Map<string, readonly (PrevoutInfo | null)[]>();
    for (const tx of block.txs) {
      const id = this.keys.txIds[this.txIndex]!;
      this.effects.begin();
      const spent: (PrevoutInfo | null)[] = tx.isCoinbase ? [null] : [];
      prevouts.set(tx.txid, spent);
      const inputValue = tx.isCoinbase ? 0n : this.spendInputs(tx.inputs, id, spent);
      this.inputAt += tx.inputs.length;
      const outputValue = this.addOutputs(tx.outputs, tx.txid, id);
      if (tx.isCoinbase) reward += outputValue;
      else fees += inputValue - outputValue;
      valueOut += outputValue;
      this.closeEffects(tx.txid, id, deltas);
      this.rows.txs[this.txIndex] = {
        id, txid: this.needs.txids[this.txIndex]!, txidHex: tx.txid, size: tx.size, weight: tx.weight, raw: viewBytes(tx.raw), firstSeen: null,
      };
      this.txIndex++;
    }
    this.rows.blocks.push({
      hash: hexToBytes(h.hash), height, prevHash: hexToBytes(h.prevHash), merkleRoot: hexToBytes(h.merkleRoot), version: h.version,
      time: h.time, bits: h.bits, nonce: h.nonce, size: block.size, strippedSize: block.strippedSize,
      weight: block.weight, txCount: block.txs.length, firstTx, fees, reward, valueOut,
    });
    this.rows.summaries.push({
      hash: h.hash, height, prevHash: h.prevHash, time: h.time, size: block.size, txCount: block.txs.length, fees, reward, valueOut, deltas,
      prevouts,
    });
    this.rows.newTip = { height, hash: h.hash };
  }

  finish(): BatchRows {
    this.rows.totals = this.tally.totals();
    return this.rows;
  }

  /**
   * Marks in-batch prevouts spent, adds every input's value to its script's effect and what it spent to `spent`;
   * returns their sum.
   */
  private spendInputs(inputs: readonly TxInput[], id: number, spent: (PrevoutInfo | null)[]): bigint {
    const { out } = this;
    const sources = this.needs.inputSources;
    let inputValue = 0n;
    for (let vin = 0; vin < inputs.length; vin++) {
      const source = sources[this.inputAt + vin]!;
      let value: bigint;
      let local: number;
      if (source >= 0) {
        // Spent twice inside the batch: the second spend has no prevout left (as a missing one).
        if (out.spentVin[source] !== null) throw missingPrevoutError({ txid: inputs[vin]!.prevTxid, vout: inputs[vin]!.prevVout });
        out.spentBy[source] = id;
        out.spentVin[source] = vin;
        value = out.value[source]!;
        local = this.outputLocals[source]!;
      } else {
        const resolved = this.keys.external[-1 - source];
        if (resolved === undefined) throw missingPrevoutError({ txid: inputs[vin]!.prevTxid, vout: inputs[vin]!.prevVout });
        value = resolved.value;
        local = this.externalLocals[-1 - source]!;
      }
      this.effects.spend(local, value);
      spent.push({ txid: inputs[vin]!.prevTxid, vout: inputs[vin]!.prevVout, value, script: this.tally.scripts[local]! });
      inputValue = vin === 0 ? value : inputValue + value;
    }
    return inputValue;
  }

  /** Fills the output columns of a tx's outputs; returns their sum. */
  private addOutputs(outputs: readonly TxOutput[], txidHex: string, id: number): bigint {
    const out = this.out;
    const scripts = this.needs.outputScripts;
    let outputValue = 0n;
    for (let vout = 0; vout < outputs.length; vout++) {
      const at = this.outAt++;
      const local = this.scriptLocals[scripts[at]!]!;
      if (local < 0) throw new StoreError(`script key not resolved for ${txidHex}:${vout}`);
      const value = outputs[vout]!.value;
      this.outputLocals[at] = local;
      out.id[at] = id; out.vout[at] = vout; out.value[at] = value; out.script[at] = this.tally.ids[local]!;
      out.spentBy[at] = null; out.spentVin[at] = null;
      this.effects.fund(local, value);
      outputValue = vout === 0 ? value : outputValue + value;
    }
    return outputValue;
  }

  /** Per script the tx touched: its totals, its history row and its ScriptDelta (inputs' scripts first, as touched). */
  private closeEffects(txid: string, id: number, deltas: ScriptDelta[]): void {
    const { effects, tally, hist } = this;
    for (let slot = 0; slot < effects.count; slot++) {
      const local = effects.locals[slot]!;
      const received = effects.received[slot]!;
      const sent = effects.sent[slot]!;
      const flags = effects.flags[slot]!;
      tally.add(local, received, sent, flags);
      hist.script.push(tally.ids[local]!);
      hist.id.push(id);
      hist.flags.push(flags & (FUNDS | SPENDS));
      deltas.push({ script: tally.scripts[local]!, txid, received, sent });
    }
  }
}

/**
 * The batch's per-block results with the mempool txs it removed: each confirmed tx with the block that holds it, the
 * conflicted ones once, with the last block (a batch of several blocks must not report a removal twice).
 */
export function connectedBlocks(rows: BatchRows, confirmed: readonly string[], conflicted: readonly string[]): ConnectedBlock[] {
  const last = rows.summaries.length - 1;
  return rows.summaries.map((s, i) => ({
    ...s,
    confirmedFromMempool: rows.summaries.length === 1 ? confirmed : confirmed.filter((txid) => s.prevouts.has(txid)),
    conflicted: i === last ? conflicted : [],
  }));
}
