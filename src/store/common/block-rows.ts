/**
 * Turns a batch of blocks into the rows both drivers write. Two pure phases around the driver's bulk reads:
 * collectBatchNeeds (which scripts and external prevouts to look up, one query each) and buildBatchRows.
 * Hot path of initial sync, so both avoid per-row objects and repeated lookups: the many per-output/per-input rows
 * are columns (parallel arrays, sized up front); collectBatchNeeds resolves every input to the output it spends
 * (in-batch) or to an external prevout once, so building does no lookup per input; per-script sums live in the
 * array slots of a ScriptTally.
 */
import { StoreError } from '../../core/errors.js';
import type { Block, Transaction, TxInput, TxOutput } from '../../core/chain-types.js';
import type { BlockToConnect, ChainTip, ConnectedBlock, Outpoint, ScriptDelta } from '../../core/store.js';
import { hexToBytes, outpointKey, PREVOUT_BYTES, scriptKey, setUint64BE, viewBytes, writeHash } from './codec.js';
import { ScriptTally, TxEffectSlots, type TotalsDelta } from './tx-effects.js';

export interface ResolvedOutput {
  readonly value: bigint;
  readonly scriptId: number;
  readonly script: Uint8Array;
}

export interface BlockRow {
  hash: Buffer; height: number; prevHash: Buffer; merkleRoot: Buffer; version: number; time: number;
  bits: number; nonce: number; size: number; strippedSize: number; weight: number; txCount: number;
  fees: bigint; reward: bigint; valueOut: bigint; txids: Buffer;
}

export interface TxRow {
  txid: Buffer; txidHex: string; blockHash: Buffer; height: number; position: number; raw: Buffer;
  size: number; vsize: number; weight: number; fee: bigint | null; isCoinbase: boolean; prevouts: Buffer;
  /** Filled by the driver from the mempool row the block confirms. */
  firstSeen: number | null;
  /** Where its outputs are in the output columns (drivers may write them in txid order). */
  firstOutput: number;
  outputCount: number;
}

/** Outputs created by the batch, one index per output (in-batch spends already set). */
export interface OutputColumns {
  txid: Buffer[]; vout: number[]; value: bigint[]; scriptId: number[]; height: number[]; position: number[];
  spentTxid: (Buffer | null)[]; spentVin: (number | null)[];
}


/** One row per funding output (io 0, n = vout) and per spending input (io 1, n = vin). */
export interface HistoryColumns {
  scriptId: number[]; height: number[]; position: number[]; io: number[]; n: number[]; txid: Buffer[]; value: bigint[];
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

export interface ExternalPrevout extends Outpoint {
  /** The batch tx spending it (the last one if, invalidly, several do) and its input index. */
  spender: Buffer;
  vin: number;
}

export interface BatchNeeds {
  /** Distinct output scripts by key, in first-use order (the numbering of outputScripts). */
  scripts: Map<string, Uint8Array>;
  /** Prevouts not created inside the batch: the driver resolves them and marks them spent (by spender, vin). */
  externalPrevouts: ExternalPrevout[];
  /** Per external prevout: its outpointKey, the key of the driver's prevouts map (built and hashed once). */
  externalKeys: string[];
  /** Per tx in batch order: the txid as stored (32 bytes of the display hex), a view of txidBytes. */
  txids: Buffer[];
  /** All the batch's stored txids back to back (a block's run of them is its txids blob). */
  txidBytes: Buffer;
  /** Per output in batch order: the number of its script in scripts' order. */
  outputScripts: Int32Array;
  /**
   * Per input in batch order (coinbase inputs included, unused): the output index of a prevout created in the
   * batch, or -1 - i for externalPrevouts[i]. Resolved here once so building needs no lookup per input.
   */
  inputSources: Int32Array;
  /** Inputs that spend a prevout (all but coinbase inputs): one history row each. */
  spendCount: number;
}

export function assertExtendsTip(blocks: readonly BlockToConnect[], tip: ChainTip | null): void {
  let expectHeight = tip ? tip.height + 1 : 0;
  let expectPrev = tip?.hash ?? null;
  for (const { height, block } of blocks) {
    if (height !== expectHeight) throw new StoreError(`block ${block.header.hash} at height ${height} does not extend tip (expected height ${expectHeight})`);
    if (expectPrev !== null && block.header.prevHash !== expectPrev) {
      throw new StoreError(`block ${block.header.hash} has prev ${block.header.prevHash}, tip is ${expectPrev}`);
    }
    expectHeight = height + 1;
    expectPrev = block.header.hash;
  }
}

export function collectBatchNeeds(blocks: readonly BlockToConnect[]): BatchNeeds {
  const collector = new NeedsCollector(blocks);
  for (const { block } of blocks) for (const tx of block.txs) collector.addTx(tx);
  return collector.needs;
}

/** The state of one collectBatchNeeds call: txs are added in batch order. */
class NeedsCollector {
  readonly needs: BatchNeeds;
  /** Script key -> its number in needs.scripts order. */
  private readonly scriptNumbers = new Map<string, number>();
  /** Txs added so far: txid -> batch index (a later duplicate txid replaces an earlier one). */
  private readonly created = new Map<string, number>();
  /** Per tx added: the index of its output 0; outputStart[i + 1] - outputStart[i] is its output count. */
  private readonly outputStart: Int32Array;
  /** outpointKey -> index in needs.externalPrevouts. */
  private readonly external = new Map<string, number>();
  private txIndex = 0;
  private inputAt = 0;
  private outputAt = 0;

  constructor(blocks: readonly BlockToConnect[]) {
    let txCount = 0;
    let inputCount = 0;
    let outputCount = 0;
    for (const { block } of blocks) {
      for (const tx of block.txs) {
        txCount++;
        inputCount += tx.inputs.length;
        outputCount += tx.outputs.length;
      }
    }
    this.outputStart = new Int32Array(txCount + 1);
    this.needs = {
      scripts: new Map(), externalPrevouts: [], externalKeys: [], txids: [], txidBytes: Buffer.allocUnsafe(txCount * 32),
      outputScripts: new Int32Array(outputCount), inputSources: new Int32Array(inputCount), spendCount: 0,
    };
  }

  addTx(tx: Transaction): void {
    const { txidBytes } = this.needs;
    const at = this.txIndex * 32;
    writeHash(txidBytes, tx.txid, at);
    const txid = txidBytes.subarray(at, at + 32);
    this.needs.txids.push(txid);
    if (!tx.isCoinbase) this.resolveInputs(tx.inputs, txid);
    this.inputAt += tx.inputs.length;
    this.numberScripts(tx.outputs);
    this.outputStart[this.txIndex + 1] = this.outputAt;
    this.created.set(tx.txid, this.txIndex++);
  }

  /** Sets each input's source: an output the batch created before, or an external prevout (listed once). */
  private resolveInputs(inputs: readonly TxInput[], spender: Buffer): void {
    const { needs, outputStart } = this;
    needs.spendCount += inputs.length;
    for (let vin = 0; vin < inputs.length; vin++) {
      const { prevTxid, prevVout } = inputs[vin]!;
      const own = this.created.get(prevTxid);
      if (own !== undefined && prevVout < outputStart[own + 1]! - outputStart[own]!) {
        needs.inputSources[this.inputAt + vin] = outputStart[own]! + prevVout;
        continue;
      }
      const key = outpointKey(prevTxid, prevVout);
      let i = this.external.get(key);
      if (i === undefined) {
        i = needs.externalPrevouts.length;
        this.external.set(key, i);
        needs.externalPrevouts.push({ txid: prevTxid, vout: prevVout, spender, vin });
        needs.externalKeys.push(key);
      } else {
        const known = needs.externalPrevouts[i]!;
        known.spender = spender;
        known.vin = vin;
      }
      needs.inputSources[this.inputAt + vin] = -1 - i;
    }
  }

  /** Numbers the outputs' scripts (distinct ones in first-use order, as needs.scripts lists them). */
  private numberScripts(outputs: readonly TxOutput[]): void {
    const { needs, scriptNumbers } = this;
    for (let vout = 0; vout < outputs.length; vout++) {
      const script = outputs[vout]!.script;
      const key = scriptKey(script);
      let n = scriptNumbers.get(key);
      if (n === undefined) {
        n = scriptNumbers.size;
        scriptNumbers.set(key, n);
        needs.scripts.set(key, script);
      }
      needs.outputScripts[this.outputAt++] = n;
    }
  }
}

/** Every outpoint the batch spends, with its spender (mempool conflict detection; only needed with a mempool). */
export function spentOutpoints(blocks: readonly BlockToConnect[]): { outpoint: Outpoint; spender: string }[] {
  const spent: { outpoint: Outpoint; spender: string }[] = [];
  for (const { block } of blocks) {
    for (const tx of block.txs) {
      if (tx.isCoinbase) continue;
      for (const input of tx.inputs) spent.push({ outpoint: { txid: input.prevTxid, vout: input.prevVout }, spender: tx.txid });
    }
  }
  return spent;
}

export function missingPrevoutError(outpoint: Outpoint): StoreError {
  return new StoreError(`missing prevout ${outpoint.txid}:${outpoint.vout}`);
}

export function buildBatchRows(
  blocks: readonly BlockToConnect[],
  needs: BatchNeeds,
  scriptIds: ReadonlyMap<string, number>,
  prevouts: ReadonlyMap<string, ResolvedOutput>,
): BatchRows {
  const builder = new BatchBuilder(needs, scriptIds, prevouts);
  for (const { height, block } of blocks) builder.addBlock(height, block);
  return builder.finish();
}

// The columns are sized up front: filling preallocated arrays is several times faster than growing them by push.
function outputColumns(n: number): OutputColumns {
  return {
    txid: new Array<Buffer>(n), vout: new Array<number>(n), value: new Array<bigint>(n), scriptId: new Array<number>(n),
    height: new Array<number>(n), position: new Array<number>(n), spentTxid: new Array<Buffer | null>(n), spentVin: new Array<number | null>(n),
  };
}

function historyColumns(n: number): HistoryColumns {
  return {
    scriptId: new Array<number>(n), height: new Array<number>(n), position: new Array<number>(n), io: new Array<number>(n),
    n: new Array<number>(n), txid: new Array<Buffer>(n), value: new Array<bigint>(n),
  };
}

/** Per distinct output script (needs.outputScripts numbering): its tally local, -1 when scriptIds lacks it. */
function outputScriptLocals(needs: BatchNeeds, scriptIds: ReadonlyMap<string, number>, tally: ScriptTally): Int32Array {
  const locals = new Int32Array(needs.scripts.size);
  let n = 0;
  for (const [key, script] of needs.scripts) {
    const id = scriptIds.get(key);
    locals[n++] = id === undefined ? -1 : tally.local(id, script);
  }
  return locals;
}

interface ExternalResolution {
  /** Per external prevout: what the driver resolved; undefined when missing (reported at the input spending it). */
  readonly resolved: (ResolvedOutput | undefined)[];
  /** Per external prevout: the tally local of its script (-1 when missing). */
  readonly locals: Int32Array;
}

function resolveExternal(needs: BatchNeeds, prevouts: ReadonlyMap<string, ResolvedOutput>, tally: ScriptTally): ExternalResolution {
  const keys = needs.externalKeys;
  const resolved: (ResolvedOutput | undefined)[] = [];
  const locals = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const r = prevouts.get(keys[i]!);
    resolved.push(r);
    locals[i] = r === undefined ? -1 : tally.local(r.scriptId, r.script);
  }
  return { resolved, locals };
}

/** The state of one buildBatchRows call: blocks are added in order, each tx's rows filled in place. */
class BatchBuilder {
  private readonly rows: BatchRows;
  private readonly out: OutputColumns;
  private readonly hist: HistoryColumns;
  private readonly tally: ScriptTally;
  private readonly effects: TxEffectSlots;
  /** Per distinct output script: its tally local. */
  private readonly scriptLocals: Int32Array;
  private readonly external: ExternalResolution;
  /** Per output of the batch: its tally local (how an in-batch spend finds the script). */
  private readonly outputLocals: Int32Array;
  // Every tx's prevouts blob is a view of one zeroed buffer (one allocation per batch, not per tx); null entries
  // (coinbase inputs) stay all zeros: script ids start at 1, so 0 marks "none".
  private readonly blob: Buffer;
  private readonly blobView: DataView;
  private txIndex = 0;
  private inputAt = 0;
  private outAt = 0;
  private histAt = 0;

  constructor(
    private readonly needs: BatchNeeds,
    scriptIds: ReadonlyMap<string, number>,
    prevouts: ReadonlyMap<string, ResolvedOutput>,
  ) {
    const outputCount = needs.outputScripts.length;
    this.out = outputColumns(outputCount);
    this.hist = historyColumns(needs.spendCount + outputCount);
    this.rows = {
      blocks: [], txs: new Array<TxRow>(needs.txids.length), outputs: this.out,
      history: this.hist, totals: [], summaries: [],
      newTip: { height: -1, hash: '' },
    };
    this.tally = new ScriptTally(needs.scripts.size + needs.externalKeys.length);
    this.scriptLocals = outputScriptLocals(needs, scriptIds, this.tally);
    this.external = resolveExternal(needs, prevouts, this.tally);
    this.effects = new TxEffectSlots(this.tally.size);
    this.outputLocals = new Int32Array(outputCount);
    this.blob = Buffer.alloc(needs.inputSources.length * PREVOUT_BYTES);
    this.blobView = new DataView(this.blob.buffer, this.blob.byteOffset, this.blob.byteLength);
  }

  addBlock(height: number, block: Block): void {
    const h = block.header;
    const hash = hexToBytes(h.hash);
    const firstTx = this.txIndex;
    let fees = 0n;
    let reward = 0n;
    let valueOut = 0n;
    const deltas: ScriptDelta[] = [];
    const txs = block.txs;
    for (let position = 0; position < txs.length; position++) {
      const tx = txs[position]!;
      const txid = this.needs.txids[this.txIndex]!;
      const packedAt = this.inputAt * PREVOUT_BYTES;
      this.effects.begin();
      const inputValue = tx.isCoinbase ? 0n : this.spendInputs(tx.inputs, txid, height, position);
      this.inputAt += tx.inputs.length;
      const firstOutput = this.outAt;
      const outputValue = this.addOutputs(tx.outputs, tx.txid, txid, height, position);
      const fee = tx.isCoinbase ? null : inputValue - outputValue;
      if (fee !== null) fees += fee;
      else reward += outputValue;
      valueOut += outputValue;
      this.closeEffects(tx.txid, deltas);
      this.rows.txs[this.txIndex++] = {
        txid, txidHex: tx.txid, blockHash: hash, height, position, raw: viewBytes(tx.raw),
        size: tx.size, vsize: tx.vsize, weight: tx.weight, fee, isCoinbase: tx.isCoinbase,
        prevouts: this.blob.subarray(packedAt, this.inputAt * PREVOUT_BYTES), firstSeen: null,
        firstOutput, outputCount: tx.outputs.length,
      };
    }
    const txidBytes = this.needs.txidBytes;
    this.rows.blocks.push({
      hash, height, prevHash: hexToBytes(h.prevHash), merkleRoot: hexToBytes(h.merkleRoot), version: h.version,
      time: h.time, bits: h.bits, nonce: h.nonce, size: block.size, strippedSize: block.strippedSize,
      weight: block.weight, txCount: txs.length, fees, reward, valueOut,
      txids: txidBytes.subarray(firstTx * 32, this.txIndex * 32),
    });
    this.rows.summaries.push({
      hash: h.hash, height, prevHash: h.prevHash, time: h.time, size: block.size, txCount: txs.length,
      fees, reward, valueOut, deltas,
    });
    this.rows.newTip = { height, hash: h.hash };
  }

  finish(): BatchRows {
    this.rows.totals = this.tally.totals();
    return this.rows;
  }

  /** Marks the prevouts spent, packs them into the tx's prevouts blob and adds the history rows; returns their sum. */
  private spendInputs(inputs: readonly TxInput[], txid: Buffer, height: number, position: number): bigint {
    const { out, blob, blobView, external } = this;
    const sources = this.needs.inputSources;
    let inputValue = 0n;
    for (let vin = 0; vin < inputs.length; vin++) {
      const { prevTxid, prevVout } = inputs[vin]!;
      const source = sources[this.inputAt + vin]!;
      const off = (this.inputAt + vin) * PREVOUT_BYTES;
      let value: bigint;
      let local: number;
      if (source >= 0) {
        // Spent twice inside the batch: the second spend has no prevout left (as a missing one).
        if (out.spentVin[source] !== null) throw missingPrevoutError({ txid: prevTxid, vout: prevVout });
        out.spentTxid[source] = txid;
        out.spentVin[source] = vin;
        value = out.value[source]!;
        local = this.outputLocals[source]!;
        blob.set(out.txid[source]!, off);
      } else {
        const resolved = external.resolved[-1 - source];
        if (resolved === undefined) throw missingPrevoutError({ txid: prevTxid, vout: prevVout });
        value = resolved.value;
        local = external.locals[-1 - source]!;
        writeHash(blob, prevTxid, off);
      }
      const scriptId = this.tally.ids[local]!;
      blobView.setUint32(off + 32, prevVout);
      setUint64BE(blobView, off + 36, value);
      blobView.setUint32(off + 44, Math.floor(scriptId / 0x100000000));
      blobView.setUint32(off + 48, scriptId >>> 0);
      this.effects.spend(local, value);
      inputValue = vin === 0 ? value : inputValue + value;
      this.addHistory(scriptId, height, position, 1, vin, txid, value);
    }
    return inputValue;
  }

  /** Fills the output columns and history rows of a tx's outputs; returns their sum. */
  private addOutputs(outputs: readonly TxOutput[], txidHex: string, txid: Buffer, height: number, position: number): bigint {
    const out = this.out;
    const scripts = this.needs.outputScripts;
    let outputValue = 0n;
    for (let vout = 0; vout < outputs.length; vout++) {
      const at = this.outAt++;
      const local = this.scriptLocals[scripts[at]!]!;
      if (local < 0) throw new StoreError(`script id not resolved for ${txidHex}:${vout}`);
      const scriptId = this.tally.ids[local]!;
      const value = outputs[vout]!.value;
      this.outputLocals[at] = local;
      out.txid[at] = txid; out.vout[at] = vout; out.value[at] = value; out.scriptId[at] = scriptId;
      out.height[at] = height; out.position[at] = position; out.spentTxid[at] = null; out.spentVin[at] = null;
      this.effects.fund(local, value);
      outputValue = vout === 0 ? value : outputValue + value;
      this.addHistory(scriptId, height, position, 0, vout, txid, value);
    }
    return outputValue;
  }

  /** One history row: io 0 for an output (n = vout), 1 for an input (n = vin). */
  private addHistory(scriptId: number, height: number, position: number, io: number, n: number, txid: Buffer, value: bigint): void {
    const hist = this.hist;
    const at = this.histAt++;
    hist.scriptId[at] = scriptId; hist.height[at] = height; hist.position[at] = position; hist.io[at] = io;
    hist.n[at] = n; hist.txid[at] = txid; hist.value[at] = value;
  }

  /** Adds the tx's per-script effects to the totals and as ScriptDeltas (inputs' scripts first, as first touched). */
  private closeEffects(txid: string, deltas: ScriptDelta[]): void {
    const { effects, tally } = this;
    for (let slot = 0; slot < effects.count; slot++) {
      const local = effects.locals[slot]!;
      const received = effects.received[slot]!;
      const sent = effects.sent[slot]!;
      tally.add(local, received, sent, effects.flags[slot]!);
      deltas.push({ script: tally.scripts[local]!, txid, received, sent });
    }
  }
}
