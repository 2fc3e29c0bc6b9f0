/**
 * What a batch of blocks needs from the store before its rows can be built: the distinct output scripts, and for
 * every input whether it spends an output created earlier in the batch (resolved here, by index) or an older one (an
 * "external" prevout, listed once for the driver to look up). Shared by the incremental writer and the bulk loader.
 */
import { StoreError } from '../../../core/domain/errors.js';
import type { Transaction, TxInput, TxOutput, ChainTip, Outpoint } from '../../../core/domain/chain-types.js';
import type { BlockToConnect } from '../../../core/store/chain-writes.js';
import { outpointKey, scriptKey, writeHash } from '../schema/codec.js';

export interface ExternalPrevout extends Outpoint {
  /** The batch index of the tx spending it (the last one if, invalidly, several do) and its input index. */
  spender: number;
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
    if (!tx.isCoinbase) this.resolveInputs(tx.inputs, this.txIndex);
    this.inputAt += tx.inputs.length;
    this.numberScripts(tx.outputs);
    this.outputStart[this.txIndex + 1] = this.outputAt;
    this.created.set(tx.txid, this.txIndex++);
  }

  /** Sets each input's source: an output the batch created before, or an external prevout (listed once). */
  private resolveInputs(inputs: readonly TxInput[], spender: number): void {
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
