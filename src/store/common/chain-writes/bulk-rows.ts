/**
 * The rows of an initial (bulk) load batch: what can be written without reading anything from the store. Txs and
 * outputs are appended in id order; an input spending an output of the same batch marks it spent here; an input
 * spending an older output becomes a pending spend (resolved by a sorted merge when the load ends, see the drivers'
 * bulk builders); output scripts get their base keys (collisions are settled when the load ends). No history, totals
 * or fees yet: those are derived from the outputs once every spend is known.
 */
import type { Block, ChainTip } from '../../../core/domain/chain-types.js';
import type { BlockToConnect } from '../../../core/store/chain-writes.js';
import type { BatchNeeds } from './batch-needs.js';
import { hexToBytes, viewBytes } from '../schema/codec.js';

export interface BulkBlockRow {
  hash: Buffer; height: number; prevHash: Buffer; merkleRoot: Buffer; version: number; time: number;
  bits: number; nonce: number; size: number; strippedSize: number; weight: number; txCount: number; firstTx: number;
  reward: bigint; valueOut: bigint;
}

export interface BulkRows {
  blocks: BulkBlockRow[];
  /** Per tx: id = firstId + index; txid is a view of needs.txidBytes. */
  txs: { txid: Buffer; size: number; weight: number; raw: Buffer }[];
  /** Outputs in (id, vout) order. */
  outputs: { id: number[]; vout: number[]; value: bigint[]; script: number[]; spentBy: (number | null)[]; spentVin: (number | null)[] };
  /** Spends of outputs the batch did not create: (spender id, vin, prev txid bytes, prev vout). */
  pending: { spender: number[]; vin: number[]; prevTxid: Buffer[]; prevVout: number[] };
  /** Per distinct output script of the batch: its base key, the id of the first tx paying it, its bytes. */
  scripts: { key: number; firstId: number; script: Uint8Array }[];
  newTip: ChainTip;
  txCount: number;
}

/**
 * `firstId`: the id of the batch's first tx. `keyOf`: a script's base key. `recent`: scripts staged lately (a bounded
 * set the caller keeps between batches), so a hot script is not staged batch after batch; a miss only stages a
 * duplicate, which the end of the load removes.
 */
export function buildBulkRows(
  blocks: readonly BlockToConnect[], needs: BatchNeeds, firstId: number, keyOf: (script: Uint8Array) => number, recent: RecentKeys,
): BulkRows {
  const outputCount = needs.outputScripts.length;
  const scriptKeys = new Array<number>(needs.scripts.size);
  const scriptFirst = new Int32Array(needs.scripts.size).fill(-1);
  const scriptBytes = [...needs.scripts.values()];
  const scriptIds = [...needs.scripts.keys()];
  scriptBytes.forEach((script, i) => { scriptKeys[i] = keyOf(script); });
  const rows: BulkRows = {
    blocks: [], txs: [], newTip: { height: -1, hash: '' }, txCount: needs.txids.length, scripts: [],
    outputs: {
      id: new Array<number>(outputCount), vout: new Array<number>(outputCount), value: new Array<bigint>(outputCount),
      script: new Array<number>(outputCount), spentBy: new Array<number | null>(outputCount), spentVin: new Array<number | null>(outputCount),
    },
    pending: { spender: [], vin: [], prevTxid: [], prevVout: [] },
  };
  const out = rows.outputs;
  let txIndex = 0;
  let inputAt = 0;
  let outAt = 0;
  for (const { height, block } of blocks) {
    let reward = 0n;
    let valueOut = 0n;
    const firstTx = firstId + txIndex;
    for (const tx of block.txs) {
      const id = firstId + txIndex;
      if (!tx.isCoinbase) {
        for (let vin = 0; vin < tx.inputs.length; vin++) {
          const source = needs.inputSources[inputAt + vin]!;
          if (source >= 0) {
            out.spentBy[source] = id;
            out.spentVin[source] = vin;
          } else {
            const ext = needs.externalPrevouts[-1 - source]!;
            rows.pending.spender.push(id);
            rows.pending.vin.push(vin);
            rows.pending.prevTxid.push(hexToBytes(ext.txid));
            rows.pending.prevVout.push(ext.vout);
          }
        }
      }
      inputAt += tx.inputs.length;
      let txOut = 0n;
      for (let vout = 0; vout < tx.outputs.length; vout++) {
        const at = outAt++;
        const n = needs.outputScripts[at]!;
        const value = tx.outputs[vout]!.value;
        out.id[at] = id; out.vout[at] = vout; out.value[at] = value; out.script[at] = scriptKeys[n]!;
        out.spentBy[at] ??= null; out.spentVin[at] ??= null;
        if (scriptFirst[n] === -1) scriptFirst[n] = id;
        txOut += value;
      }
      if (tx.isCoinbase) reward += txOut;
      valueOut += txOut;
      rows.txs.push({ txid: needs.txids[txIndex]!, size: tx.size, weight: tx.weight, raw: viewBytes(tx.raw) });
      txIndex++;
    }
    rows.blocks.push(blockRow(height, block, firstTx, reward, valueOut));
    rows.newTip = { height, hash: block.header.hash };
  }
  for (let n = 0; n < scriptBytes.length; n++) {
    if (recent.add(scriptIds[n]!)) rows.scripts.push({ key: scriptKeys[n]!, firstId: scriptFirst[n]!, script: scriptBytes[n]! });
  }
  return rows;
}

function blockRow(height: number, block: Block, firstTx: number, reward: bigint, valueOut: bigint): BulkBlockRow {
  const h = block.header;
  return {
    hash: hexToBytes(h.hash), height, prevHash: hexToBytes(h.prevHash), merkleRoot: hexToBytes(h.merkleRoot), version: h.version,
    time: h.time, bits: h.bits, nonce: h.nonce, size: block.size, strippedSize: block.strippedSize, weight: block.weight,
    txCount: block.txs.length, firstTx, reward, valueOut,
  };
}

/**
 * Scripts staged recently (by their bytes as a latin1 string, not their key: two scripts may share a key, and each
 * must be staged), at most `capacity`, oldest forgotten first: bounded memory whatever the chain length. About 100
 * bytes an entry (string and Set slot), so the default 500,000 take ~50 MB.
 */
export class RecentKeys {
  private readonly keys = new Set<string>();

  constructor(private readonly capacity = 500_000) {}

  /** True when the script was not recent (the caller stages it); it is recent afterwards. */
  add(key: string): boolean {
    if (this.keys.has(key)) return false;
    if (this.keys.size >= this.capacity) {
      // Sets iterate in insertion order: drop the oldest tenth at once (amortised).
      let drop = Math.ceil(this.capacity / 10);
      for (const old of this.keys) {
        if (drop-- === 0) break;
        this.keys.delete(old);
      }
    }
    this.keys.add(key);
    return true;
  }
}

/** The largest element of ascending `firsts` that is <= id: the first tx id of the block holding tx `id`. */
export function blockFirstTx(firsts: readonly number[], id: number): number {
  let lo = 0;
  let hi = firsts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (firsts[mid]! <= id) lo = mid;
    else hi = mid - 1;
  }
  return firsts[lo]!;
}
