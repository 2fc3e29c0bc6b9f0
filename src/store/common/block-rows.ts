/**
 * Turns a batch of blocks into the rows both drivers write. Two pure phases around the driver's bulk reads:
 * collectBatchNeeds (which scripts and external prevouts to look up, one query each) and buildBatchRows.
 */
import { StoreError } from '../../core/errors.js';
import type { BlockToConnect, ChainTip, ConnectedBlock, Outpoint } from '../../core/store.js';
import { copyBytes, hexToBytes, outpointKey, packPrevouts, packTxids, scriptKey, type StoredPrevout } from './codec.js';
import { TotalsAccumulator, toDelta, txEffects, type EffectInput, type EffectOutput, type TotalsDelta } from './tx-effects.js';

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
}

export interface OutputRow {
  txid: Buffer; vout: number; value: bigint; scriptId: number; height: number; position: number;
  spentTxid: Buffer | null; spentVin: number | null;
}

/** Marks an output stored before this batch as spent. */
export interface SpendRow { prevTxid: Buffer; prevVout: number; txid: Buffer; vin: number }

export interface HistoryRow {
  scriptId: number; height: number; position: number; io: 0 | 1; n: number; txid: Buffer; value: bigint;
}

export interface BatchRows {
  blocks: BlockRow[];
  txs: TxRow[];
  outputs: OutputRow[];
  spends: SpendRow[];
  history: HistoryRow[];
  totals: TotalsDelta[];
  /** Every outpoint the batch spends, with its spender (for mempool conflict detection). */
  spentOutpoints: { outpoint: Outpoint; spender: string }[];
  summaries: Omit<ConnectedBlock, 'confirmedFromMempool' | 'conflicted'>[];
  newTip: ChainTip;
}

export interface BatchNeeds {
  /** Distinct output scripts by hex key. */
  scripts: Map<string, Uint8Array>;
  /** Prevouts not created inside the batch. */
  externalPrevouts: Outpoint[];
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
  const created = new Set<string>();
  const external = new Map<string, Outpoint>();
  for (const { block } of blocks) {
    for (const tx of block.txs) {
      if (!tx.isCoinbase) {
        for (const input of tx.inputs) {
          const key = outpointKey(input.prevTxid, input.prevVout);
          if (!created.has(key)) external.set(key, { txid: input.prevTxid, vout: input.prevVout });
        }
      }
      tx.outputs.forEach((output, vout) => {
        created.add(outpointKey(tx.txid, vout));
        const key = scriptKey(output.script);
        if (!scripts.has(key)) scripts.set(key, output.script);
      });
    }
  }
  return { scripts, externalPrevouts: [...external.values()] };
}

export function missingPrevoutError(outpoint: Outpoint): StoreError {
  return new StoreError(`missing prevout ${outpoint.txid}:${outpoint.vout}`);
}

export function buildBatchRows(
  blocks: readonly BlockToConnect[],
  scriptIds: ReadonlyMap<string, number>,
  prevouts: ReadonlyMap<string, ResolvedOutput>,
): BatchRows {
  const rows: BatchRows = {
    blocks: [], txs: [], outputs: [], spends: [], history: [], totals: [], spentOutpoints: [], summaries: [],
    newTip: { height: -1, hash: '' },
  };
  const totals = new TotalsAccumulator();
  // Outputs created in this batch and not yet spent by a later tx of the batch.
  const inBatch = new Map<string, { row: OutputRow; resolved: ResolvedOutput }>();
  for (const { height, block } of blocks) {
    const hash = hexToBytes(block.header.hash);
    let fees = 0n;
    let reward = 0n;
    let valueOut = 0n;
    const deltas = [];
    for (const [position, tx] of block.txs.entries()) {
      const txidBytes = hexToBytes(tx.txid);
      const effectInputs: EffectInput[] = [];
      const stored: (StoredPrevout | null)[] = [];
      let inputValue = 0n;
      if (!tx.isCoinbase) {
        for (const [vin, input] of tx.inputs.entries()) {
          const key = outpointKey(input.prevTxid, input.prevVout);
          const own = inBatch.get(key);
          const resolved = own?.resolved ?? prevouts.get(key);
          if (!resolved) throw missingPrevoutError({ txid: input.prevTxid, vout: input.prevVout });
          if (own) {
            own.row.spentTxid = txidBytes;
            own.row.spentVin = vin;
            inBatch.delete(key);
          } else {
            rows.spends.push({ prevTxid: hexToBytes(input.prevTxid), prevVout: input.prevVout, txid: txidBytes, vin });
          }
          rows.spentOutpoints.push({ outpoint: { txid: input.prevTxid, vout: input.prevVout }, spender: tx.txid });
          const prev: StoredPrevout = { txid: input.prevTxid, vout: input.prevVout, value: resolved.value, scriptId: resolved.scriptId };
          stored.push(prev);
          effectInputs.push({ vin, prev, script: resolved.script });
          inputValue += resolved.value;
          rows.history.push({ scriptId: resolved.scriptId, height, position, io: 1, n: vin, txid: txidBytes, value: resolved.value });
        }
      } else {
        for (let i = 0; i < tx.inputs.length; i++) stored.push(null);
      }
      const effectOutputs: EffectOutput[] = [];
      let outputValue = 0n;
      for (const [vout, output] of tx.outputs.entries()) {
        const scriptId = scriptIds.get(scriptKey(output.script));
        if (scriptId === undefined) throw new StoreError(`script id not resolved for ${tx.txid}:${vout}`);
        const row: OutputRow = {
          txid: txidBytes, vout, value: output.value, scriptId, height, position, spentTxid: null, spentVin: null,
        };
        rows.outputs.push(row);
        inBatch.set(outpointKey(tx.txid, vout), { row, resolved: { value: output.value, scriptId, script: output.script } });
        effectOutputs.push({ vout, value: output.value, scriptId, script: output.script });
        outputValue += output.value;
        rows.history.push({ scriptId, height, position, io: 0, n: vout, txid: txidBytes, value: output.value });
      }
      const fee = tx.isCoinbase ? null : inputValue - outputValue;
      if (fee !== null) fees += fee;
      if (tx.isCoinbase) reward += outputValue;
      valueOut += outputValue;
      for (const effect of txEffects(tx.txid, effectOutputs, effectInputs)) {
        totals.add(effect, 1);
        deltas.push(toDelta(effect));
      }
      rows.txs.push({
        txid: txidBytes, txidHex: tx.txid, blockHash: hash, height, position, raw: copyBytes(tx.raw),
        size: tx.size, vsize: tx.vsize, weight: tx.weight, fee, isCoinbase: tx.isCoinbase,
        prevouts: packPrevouts(stored), firstSeen: null,
      });
    }
    const h = block.header;
    rows.blocks.push({
      hash, height, prevHash: hexToBytes(h.prevHash), merkleRoot: hexToBytes(h.merkleRoot), version: h.version,
      time: h.time, bits: h.bits, nonce: h.nonce, size: block.size, strippedSize: block.strippedSize,
      weight: block.weight, txCount: block.txs.length, fees, reward, valueOut,
      txids: packTxids(block.txs.map((tx) => tx.txid)),
    });
    rows.summaries.push({
      hash: h.hash, height, prevHash: h.prevHash, time: h.time, size: block.size, txCount: block.txs.length,
      fees, reward, valueOut, deltas,
    });
    rows.newTip = { height, hash: h.hash };
  }
  rows.totals = totals.values();
  return rows;
}
