/**
 * Field-by-field comparison of our parsed blocks/transactions with the node's own verbose JSON
 * (`getblock <hash> 2`, `getrawtransaction <txid> 1`, fetched with exactDecimals so values are
 * decimal text). Mismatches are collected as strings so one failing assertion shows all of them.
 */
import type { Block, Transaction } from '../../src/core/domain/chain-types.js';
import { parseCoins } from '../../src/core/domain/money.js';
import { classifyScript, scriptToAddress, scriptToAsm, type NetworkParams } from '../../src/chains/addressing.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the node's JSON, checked field by field */
type NodeJson = any;

export class ParityReport {
  readonly mismatches: string[] = [];
  readonly scriptTypes = new Set<string>();
  txs = 0;
  blocks = 0;

  constructor(readonly params: NetworkParams) {}

  eq(where: string, field: string, ours: unknown, node: unknown): void {
    if (ours !== node) this.mismatches.push(`${where} ${field}: ours ${String(ours)} != node ${String(node)}`);
  }

  summary(limit = 40): string {
    const shown = this.mismatches.slice(0, limit).join('\n');
    const more = this.mismatches.length > limit ? `\n… and ${this.mismatches.length - limit} more` : '';
    return `${this.mismatches.length} mismatch(es) over ${this.blocks} blocks / ${this.txs} txs:\n${shown}${more}`;
  }
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/** The single address the node shows: `address` (Core 22+) or `addresses[0]` (Litecoin 0.21). */
function nodeAddress(spk: NodeJson): string | null {
  if (typeof spk.address === 'string') return spk.address;
  // 0.21 lists keys for multisig and a P2PKH for P2PK: Core 22+ (and we) show no address there
  if (spk.type === 'multisig' || spk.type === 'pubkey') return null;
  return Array.isArray(spk.addresses) && spk.addresses.length === 1 ? spk.addresses[0] : null;
}

export function compareTx(report: ParityReport, ours: Transaction, node: NodeJson, where: string): void {
  report.txs++;
  const w = `${where} tx ${node.txid}`;
  report.eq(w, 'txid', ours.txid, node.txid);
  report.eq(w, 'hash(wtxid)', ours.wtxid, node.hash);
  report.eq(w, 'version', ours.version, node.version);
  report.eq(w, 'locktime', ours.locktime, node.locktime);
  report.eq(w, 'size', ours.size, node.size);
  report.eq(w, 'vsize', ours.vsize, node.vsize);
  report.eq(w, 'weight', ours.weight, node.weight);
  // MWEB inputs/outputs (ismweb) live in the extension, not in our canonical lists
  const vin = (node.vin as NodeJson[]).filter((i) => i.ismweb !== true);
  const vout = (node.vout as NodeJson[]).filter((o) => o.ismweb !== true);
  report.eq(w, 'input count', ours.inputs.length, vin.length);
  report.eq(w, 'output count', ours.outputs.length, vout.length);
  vin.forEach((nin, i) => {
    const input = ours.inputs[i];
    if (!input) return;
    const wi = `${w} vin ${i}`;
    if (typeof nin.coinbase === 'string') {
      report.eq(wi, 'coinbase', hex(input.scriptSig), nin.coinbase);
    } else {
      report.eq(wi, 'prev txid', input.prevTxid, nin.txid);
      report.eq(wi, 'prev vout', input.prevVout, nin.vout);
      report.eq(wi, 'scriptSig hex', hex(input.scriptSig), nin.scriptSig.hex);
      report.eq(wi, 'scriptSig asm', scriptToAsm(input.scriptSig, { sighashDecode: true }), nin.scriptSig.asm);
    }
    report.eq(wi, 'witness', input.witness.map(hex).join(','), ((nin.txinwitness ?? []) as string[]).join(','));
    report.eq(wi, 'sequence', input.sequence, nin.sequence);
  });
  vout.forEach((nout, i) => {
    const output = ours.outputs[i];
    if (!output) return;
    const wo = `${w} vout ${i}`;
    const spk = nout.scriptPubKey;
    report.scriptTypes.add(spk.type);
    report.eq(wo, 'n', i, nout.n);
    report.eq(wo, 'value', output.value, parseCoins(nout.value));
    report.eq(wo, 'script hex', hex(output.script), spk.hex);
    report.eq(wo, 'asm', scriptToAsm(output.script), spk.asm);
    report.eq(wo, 'type', classifyScript(output.script, report.params.features), spk.type);
    report.eq(wo, 'address', scriptToAddress(report.params, output.script), nodeAddress(spk));
  });
}

export function compareBlock(report: ParityReport, ours: Block, node: NodeJson): void {
  report.blocks++;
  const w = `block ${node.height} ${node.hash}`;
  report.eq(w, 'hash', ours.header.hash, node.hash);
  report.eq(w, 'version', ours.header.version, node.version);
  report.eq(w, 'merkleroot', ours.header.merkleRoot, node.merkleroot);
  report.eq(w, 'time', ours.header.time, node.time);
  report.eq(w, 'bits', ours.header.bits.toString(16).padStart(8, '0'), node.bits);
  report.eq(w, 'nonce', ours.header.nonce, node.nonce);
  report.eq(w, 'prev', ours.header.prevHash, node.previousblockhash ?? '0'.repeat(64));
  report.eq(w, 'size', ours.size, node.size);
  report.eq(w, 'strippedsize', ours.strippedSize, node.strippedsize);
  report.eq(w, 'weight', ours.weight, node.weight);
  report.eq(w, 'tx count', ours.txs.length, node.tx.length);
  (node.tx as NodeJson[]).forEach((ntx, i) => {
    const tx = ours.txs[i];
    if (tx) compareTx(report, tx, ntx, w);
  });
  const last = ours.txs[ours.txs.length - 1];
  report.eq(w, 'HogEx flag on the last tx', last?.isHogEx ?? false, node.mweb !== undefined);
  if (node.mweb === undefined) {
    report.eq(w, 'mweb', ours.mweb, null);
    return;
  }
  const mweb = ours.mweb;
  if (!mweb) {
    report.mismatches.push(`${w}: node has an MWEB extension, ours none`);
    return;
  }
  const m = node.mweb;
  report.eq(w, 'mweb hash', mweb.headerHash, m.hash);
  report.eq(w, 'mweb height', mweb.height, m.height);
  report.eq(w, 'mweb kernel_offset', mweb.kernelOffset, m.kernel_offset);
  report.eq(w, 'mweb stealth_offset', mweb.stealthOffset, m.stealth_offset);
  report.eq(w, 'mweb kernel_root', mweb.kernelRoot, m.kernel_root);
  report.eq(w, 'mweb output_root', mweb.outputRoot, m.output_root);
  report.eq(w, 'mweb leaf_root', mweb.leafsetRoot, m.leaf_root);
  report.eq(w, 'mweb num_kernels', mweb.kernelMmrSize, BigInt(m.num_kernels));
  report.eq(w, 'mweb num_txos', mweb.outputMmrSize, BigInt(m.num_txos));
  report.eq(w, 'mweb inputs', mweb.numInputs, m.inputs.length);
  report.eq(w, 'mweb outputs', mweb.numOutputs, m.outputs.length);
  report.eq(w, 'mweb kernels', mweb.numKernels, m.kernels?.length ?? mweb.numKernels);
}
