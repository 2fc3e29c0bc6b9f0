/**
 * Turns a batch of blocks into the rows both drivers write. Two pure phases around the driver's bulk reads:
 * collectBatchNeeds (which scripts and external prevouts to look up, one query each) and buildBatchRows.
 * Hot path of initial sync: the many per-output/per-input rows are kept as columns (parallel arrays), not
 * objects, and in-batch prevouts are found through a per-txid map instead of per-outpoint string keys.
 */
import { StoreError } from '../../core/errors.js';
import type { Transaction } from '../../core/chain-types.js';
import type { BlockToConnect, ChainTip, ConnectedBlock, Outpoint, ScriptDelta } from '../../core/store.js';
import { hexToBytes, outpointKey, packTxids, PREVOUT_BYTES, scriptKey, viewBytes, writeHash } from './codec.js';
import type { TotalsDelta } from './tx-effects.js';

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

/** Outputs stored before this batch that it spends. */
export interface SpendColumns { prevTxid: Buffer[]; prevVout: number[]; txid: Buffer[]; vin: number[] }

/** One row per funding output (io 0, n = vout) and per spending input (io 1, n = vin). */
export interface HistoryColumns {
  scriptId: number[]; height: number[]; position: number[]; io: number[]; n: number[]; txid: Buffer[]; value: bigint[];
}

export interface BatchRows {
  blocks: BlockRow[];
  txs: TxRow[];
  outputs: OutputColumns;
  /** Empty when the driver marked external prevouts spent while resolving them (recordSpends false). */
  spends: SpendColumns;
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
  /** Distinct output scripts by key. */
  scripts: Map<string, Uint8Array>;
  /** Prevouts not created inside the batch. */
  externalPrevouts: ExternalPrevout[];
  /** Per tx in batch order: the txid as stored (32 bytes of the display hex). */
  txids: Buffer[];
  /** Per output in batch order: its script key. */
  outputKeys: string[];
  /** Inputs in the batch (coinbase inputs included): sizes the prevouts blobs. */
  inputCount: number;
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
  const scripts = new Map<string, Uint8Array>();
  // Outputs created so far in the batch: txid -> output count.
  const created = new Map<string, number>();
  const external = new Map<string, ExternalPrevout>();
  const txids: Buffer[] = [];
  const outputKeys: string[] = [];
  let inputCount = 0;
  for (const { block } of blocks) {
    for (const tx of block.txs) {
      const txid = hexToBytes(tx.txid);
      txids.push(txid);
      inputCount += tx.inputs.length;
      if (!tx.isCoinbase) {
        const inputs = tx.inputs;
        for (let vin = 0; vin < inputs.length; vin++) {
          const { prevTxid, prevVout } = inputs[vin]!;
          const n = created.get(prevTxid);
          if (n !== undefined && prevVout < n) continue;
          const key = outpointKey(prevTxid, prevVout);
          const known = external.get(key);
          if (known) {
            known.spender = txid;
            known.vin = vin;
          } else {
            external.set(key, { txid: prevTxid, vout: prevVout, spender: txid, vin });
          }
        }
      }
      const outputs = tx.outputs;
      for (let vout = 0; vout < outputs.length; vout++) {
        const script = outputs[vout]!.script;
        const key = scriptKey(script);
        outputKeys.push(key);
        if (!scripts.has(key)) scripts.set(key, script);
      }
      created.set(tx.txid, outputs.length);
    }
  }
  return { scripts, externalPrevouts: [...external.values()], txids, outputKeys, inputCount };
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

interface InBatchTx {
  readonly tx: Transaction;
  /** Index of its output 0 in the output columns. */
  readonly start: number;
}

/** What one tx does to one script (the per-tx unit of totals and of ScriptDelta). */
interface Effect {
  readonly scriptId: number;
  readonly script: Uint8Array;
  received: bigint;
  sent: bigint;
  funds: boolean;
  spends: boolean;
}

function touch(effects: Effect[], scriptId: number, script: Uint8Array): Effect {
  for (let i = 0; i < effects.length; i++) if (effects[i]!.scriptId === scriptId) return effects[i]!;
  const effect: Effect = { scriptId, script, received: 0n, sent: 0n, funds: false, spends: false };
  effects.push(effect);
  return effect;
}

export interface BuildOptions {
  /** Record spends of external prevouts in rows.spends (false when the driver already marked them). Default true. */
  readonly recordSpends?: boolean;
}

export function buildBatchRows(
  blocks: readonly BlockToConnect[],
  needs: BatchNeeds,
  scriptIds: ReadonlyMap<string, number>,
  prevouts: ReadonlyMap<string, ResolvedOutput>,
  options: BuildOptions = {},
): BatchRows {
  const recordSpends = options.recordSpends ?? true;
  const out: OutputColumns = { txid: [], vout: [], value: [], scriptId: [], height: [], position: [], spentTxid: [], spentVin: [] };
  const spends: SpendColumns = { prevTxid: [], prevVout: [], txid: [], vin: [] };
  const hist: HistoryColumns = { scriptId: [], height: [], position: [], io: [], n: [], txid: [], value: [] };
  const rows: BatchRows = {
    blocks: [], txs: [], outputs: out, spends, history: hist, totals: [], summaries: [], newTip: { height: -1, hash: '' },
  };
  const totals = new Map<number, TotalsDelta>();
  const inBatch = new Map<string, InBatchTx>();
  const effects: Effect[] = [];
  let txIndex = 0;
  let outIndex = 0;
  // Every tx's prevouts blob is a view of one zeroed buffer (one allocation per batch, not per tx); null entries
  // (coinbase inputs) stay all zeros: script ids start at 1, so 0 marks "none".
  const blob = Buffer.alloc(needs.inputCount * PREVOUT_BYTES);
  const blobView = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  let blobAt = 0;
  for (const { height, block } of blocks) {
    const hash = hexToBytes(block.header.hash);
    let fees = 0n;
    let reward = 0n;
    let valueOut = 0n;
    const deltas: ScriptDelta[] = [];
    const txs = block.txs;
    for (let position = 0; position < txs.length; position++) {
      const tx = txs[position]!;
      const txid = needs.txids[txIndex++]!;
      const inputs = tx.inputs;
      const packedAt = blobAt;
      blobAt += inputs.length * PREVOUT_BYTES;
      effects.length = 0;
      let inputValue = 0n;
      if (!tx.isCoinbase) {
        for (let vin = 0; vin < inputs.length; vin++) {
          const { prevTxid, prevVout } = inputs[vin]!;
          let value: bigint;
          let scriptId: number;
          let script: Uint8Array;
          const own = inBatch.get(prevTxid);
          if (own !== undefined && prevVout < own.tx.outputs.length) {
            const at = own.start + prevVout;
            // Spent twice inside the batch: the second spend has no prevout left (as a missing one).
            if (out.spentVin[at] !== null) throw missingPrevoutError({ txid: prevTxid, vout: prevVout });
            out.spentTxid[at] = txid;
            out.spentVin[at] = vin;
            value = out.value[at]!;
            scriptId = out.scriptId[at]!;
            script = own.tx.outputs[prevVout]!.script;
          } else {
            const resolved = prevouts.get(outpointKey(prevTxid, prevVout));
            if (!resolved) throw missingPrevoutError({ txid: prevTxid, vout: prevVout });
            if (recordSpends) {
              spends.prevTxid.push(hexToBytes(prevTxid));
              spends.prevVout.push(prevVout);
              spends.txid.push(txid);
              spends.vin.push(vin);
            }
            value = resolved.value;
            scriptId = resolved.scriptId;
            script = resolved.script;
          }
          const off = packedAt + vin * PREVOUT_BYTES;
          writeHash(blob, prevTxid, off);
          blobView.setUint32(off + 32, prevVout);
          blobView.setBigUint64(off + 36, value);
          blobView.setUint32(off + 44, Math.floor(scriptId / 0x100000000));
          blobView.setUint32(off + 48, scriptId >>> 0);
          const e = touch(effects, scriptId, script);
          e.sent += value;
          e.spends = true;
          inputValue += value;
          hist.scriptId.push(scriptId); hist.height.push(height); hist.position.push(position); hist.io.push(1);
          hist.n.push(vin); hist.txid.push(txid); hist.value.push(value);
        }
      }
      const outputs = tx.outputs;
      const start = out.txid.length;
      let outputValue = 0n;
      for (let vout = 0; vout < outputs.length; vout++) {
        const output = outputs[vout]!;
        const scriptId = scriptIds.get(needs.outputKeys[outIndex++]!);
        if (scriptId === undefined) throw new StoreError(`script id not resolved for ${tx.txid}:${vout}`);
        const value = output.value;
        out.txid.push(txid); out.vout.push(vout); out.value.push(value); out.scriptId.push(scriptId);
        out.height.push(height); out.position.push(position); out.spentTxid.push(null); out.spentVin.push(null);
        const e = touch(effects, scriptId, output.script);
        e.received += value;
        e.funds = true;
        outputValue += value;
        hist.scriptId.push(scriptId); hist.height.push(height); hist.position.push(position); hist.io.push(0);
        hist.n.push(vout); hist.txid.push(txid); hist.value.push(value);
      }
      inBatch.set(tx.txid, { tx, start });
      const fee = tx.isCoinbase ? null : inputValue - outputValue;
      if (fee !== null) fees += fee;
      else reward += outputValue;
      valueOut += outputValue;
      for (const e of effects) {
        let t = totals.get(e.scriptId);
        if (!t) {
          t = { scriptId: e.scriptId, received: 0n, sent: 0n, txCount: 0, receivedCount: 0, sentCount: 0 };
          totals.set(e.scriptId, t);
        }
        t.received += e.received;
        t.sent += e.sent;
        t.txCount++;
        if (e.funds) t.receivedCount++;
        if (e.spends) t.sentCount++;
        deltas.push({ script: e.script, txid: tx.txid, received: e.received, sent: e.sent });
      }
      rows.txs.push({
        txid, txidHex: tx.txid, blockHash: hash, height, position, raw: viewBytes(tx.raw),
        size: tx.size, vsize: tx.vsize, weight: tx.weight, fee, isCoinbase: tx.isCoinbase,
        prevouts: blob.subarray(packedAt, blobAt), firstSeen: null, firstOutput: start, outputCount: outputs.length,
      });
    }
    const h = block.header;
    rows.blocks.push({
      hash, height, prevHash: hexToBytes(h.prevHash), merkleRoot: hexToBytes(h.merkleRoot), version: h.version,
      time: h.time, bits: h.bits, nonce: h.nonce, size: block.size, strippedSize: block.strippedSize,
      weight: block.weight, txCount: txs.length, fees, reward, valueOut,
      txids: packTxids(txs.map((tx) => tx.txid)),
    });
    rows.summaries.push({
      hash: h.hash, height, prevHash: h.prevHash, time: h.time, size: block.size, txCount: txs.length,
      fees, reward, valueOut, deltas,
    });
    rows.newTip = { height, hash: h.hash };
  }
  rows.totals = [...totals.values()];
  return rows;
}
