/**
 * Synthetic mempool transactions for the stand-in node, valid for our indexer: each spends outputs that are unspent
 * at the revealed tip (outputs of the last blocks not spent within them) or outputs of earlier mempool txs (change
 * re-spent, as wallets chain payments), pays one of a set of watched addresses (a merchant's deposit addresses, what
 * realtime subscribers follow), sometimes a second payee (a new address, a recent one, or a hot old one) and change.
 * Scripts, scriptSigs and witnesses come from the chain generator's writers (script-kinds.ts); txids are real
 * (the parser reads the serialization back).
 */
import type { Transaction } from '../../src/core/index.js';
import { classifyScript } from '../../src/chains/addressing.js';
import { parseBlock, parseTransaction } from '../../src/chains/parsing.js';
import type { ChainFiles } from './block-files.js';
import { ByteSink } from './byte-sink.js';
import { params } from './chain-params.js';
import { DUST, feeRate } from './chain-shape.js';
import { Prng } from './prng.js';
import {
  BARE_MULTISIG, INPUT_VBYTES, kindOf, MAX_INPUT_BYTES, MAX_OUTPUT_BYTES, P2PK, P2PKH, P2SH_P2WPKH, P2TR, P2WPKH, P2WSH_MULTISIG,
  SignatureNoise, spendsWithWitness, writeOutputScript, writeScriptSig, writeWitness,
} from './script-kinds.js';

export interface Spendable {
  readonly txid: string;
  readonly vout: number;
  readonly value: number;
  readonly script: Uint8Array;
}

export interface MadeTx {
  readonly raw: Uint8Array;
  readonly tx: Transaction;
  /** Inputs minus outputs, base units. */
  readonly fee: number;
}

/** Address ids of new addresses: far above the chain's (24M addresses at 21.9M txs), so never an existing one. */
const NEW_ADDRESS_BASE = 1_000_000_000;
const WATCHED_ADDRESS_BASE = 1_500_000_000;
/** Old addresses below this id exist in any prefix of the chain worth indexing (100k txs have ~110k addresses). */
const HOT_IDS = 100_000;
/** Inputs worth spending: below this a payment and its fee do not fit. */
const MIN_INPUT = 5_000;

const SPENDER_KIND: Partial<Record<string, number>> = {
  pubkeyhash: P2PKH, witness_v0_keyhash: P2WPKH, scripthash: P2SH_P2WPKH, witness_v0_scripthash: P2WSH_MULTISIG,
  witness_v1_taproot: P2TR, pubkey: P2PK, multisig: BARE_MULTISIG,
};

/** The kind whose spend an output's script takes, or null when it is not spent here (OP_RETURN, nonstandard). */
export function spenderKind(script: Uint8Array): number | null {
  return SPENDER_KIND[classifyScript(script, params.features)] ?? null;
}

/** One address id of each kind: its scriptSig and witness writers give a spend of that kind's shape. */
const REPRESENTATIVE: number[] = (() => {
  const found: number[] = [];
  for (let id = 1; found.filter((x) => x !== undefined).length < 8; id++) found[kindOf(id)] ??= id;
  return found;
})();

/** Script bytes of an address id (without the length prefix). */
export function scriptOf(addrId: number): Uint8Array {
  const sink = new ByteSink(256);
  writeOutputScript(sink, addrId);
  return sink.copy(1, sink.pos);
}

/** Outputs of blocks (tip - blocks, tip] not spent within them, hence unspent at `tip`; coinbases (immature) left out. */
export async function tipUnspent(chain: ChainFiles, tip: number, blocks: number): Promise<Spendable[]> {
  const live = new Map<string, Spendable>();
  for (let h = Math.max(1, tip - blocks + 1); h <= tip; h++) {
    const block = parseBlock(await chain.readBlock(h), params.features);
    for (const tx of block.txs) {
      for (const input of tx.inputs) live.delete(`${input.prevTxid}:${input.prevVout}`);
      if (tx.isCoinbase) continue;
      tx.outputs.forEach((o, vout) => {
        if (o.value >= MIN_INPUT && spenderKind(o.script) !== null) live.set(`${tx.txid}:${vout}`, { txid: tx.txid, vout, value: Number(o.value), script: o.script });
      });
    }
  }
  return [...live.values()];
}

export class MempoolTxMaker {
  private readonly prng: Prng;
  private readonly noise: SignatureNoise;
  private readonly sink = new ByteSink(1 << 16);
  private nextNew = NEW_ADDRESS_BASE;
  private nextWatched = 0;
  /** Scripts of the watched addresses, in the order payments go round them. */
  readonly watched: readonly Uint8Array[];

  constructor(
    private readonly pool: Spendable[],
    watchedCount: number,
    seed: number,
  ) {
    this.prng = new Prng(seed);
    this.noise = new SignatureNoise(this.prng);
    // Deposit addresses have an address form (no P2PK or bare multisig): subscribers follow them by address.
    const ids: number[] = [];
    for (let id = WATCHED_ADDRESS_BASE; ids.length < watchedCount; id++) if (kindOf(id) !== P2PK && kindOf(id) !== BARE_MULTISIG) ids.push(id);
    this.watched = ids.map(scriptOf);
  }

  /** Outputs left to spend. */
  get spendable(): number {
    return this.pool.length;
  }

  /** Builds one tx from the pool (its inputs leave the pool, its change and second payment join it). */
  make(): MadeTx {
    const inputs: Spendable[] = [];
    const u = this.prng.float();
    const wanted = u < 0.65 ? 1 : u < 0.9 ? 2 : 3;
    let total = 0;
    const rate = feeRate(this.prng);
    let vbytes = 11 + 3 * 43;
    while (inputs.length < wanted || (total - Math.ceil(vbytes * rate) < 3 * DUST && inputs.length < 8)) {
      if (this.pool.length === 0) throw new Error('the stand-in mempool ran out of unspent outputs');
      const input = this.take(this.prng.below(this.pool.length));
      inputs.push(input);
      total += input.value;
      vbytes += INPUT_VBYTES[spenderKind(input.script)!]!;
    }
    const available = total - Math.ceil(vbytes * rate);
    if (available < 3 * DUST) return this.make();
    const outputs: { value: number; script: Uint8Array; respend: boolean }[] = [];
    const payment = Math.max(DUST, Math.floor(available * (0.1 + 0.5 * this.prng.float())));
    outputs.push({ value: payment, script: this.watched[this.nextWatched++ % this.watched.length]!, respend: false });
    let left = available - payment;
    if (this.prng.float() < 0.5 && left >= 2 * DUST) {
      const second = Math.max(DUST, Math.floor(left * (0.1 + 0.5 * this.prng.float())));
      outputs.push({ value: second, script: this.payee(), respend: true });
      left -= second;
    }
    // Change: back to the first input's address or to a new one (both common); dust change goes to the fee.
    if (left >= DUST) outputs.push({ value: left, script: this.prng.float() < 0.5 ? inputs[0]!.script : scriptOf(this.nextNew++), respend: true });
    const raw = this.serialize(inputs, outputs);
    const tx = parseTransaction(raw, { mweb: false });
    outputs.forEach((o, vout) => {
      if (o.respend && o.value >= MIN_INPUT) this.pool.push({ txid: tx.txid, vout, value: o.value, script: o.script });
    });
    return { raw, tx, fee: total - outputs.reduce((sum, o) => sum + o.value, 0) };
  }

  /** Swap-remove: order in the pool does not matter. */
  private take(i: number): Spendable {
    const picked = this.pool[i]!;
    this.pool[i] = this.pool[this.pool.length - 1]!;
    this.pool.pop();
    return picked;
  }

  /** A second payee: 40 % a new address, 30 % a recent one (the pool's), 30 % a hot old one (low ids, power law). */
  private payee(): Uint8Array {
    const u = this.prng.float();
    if (u < 0.4) return scriptOf(this.nextNew++);
    if (u < 0.7 && this.pool.length > 0) return this.pool[this.prng.below(this.pool.length)]!.script;
    return scriptOf(1 + Math.floor(HOT_IDS * this.prng.float() ** 2.5));
  }

  private serialize(inputs: readonly Spendable[], outputs: readonly { value: number; script: Uint8Array }[]): Uint8Array {
    const s = this.sink;
    s.reset();
    s.reserve(16 + inputs.length * MAX_INPUT_BYTES + outputs.length * MAX_OUTPUT_BYTES);
    const kinds = inputs.map((i) => spenderKind(i.script)!);
    const witness = kinds.some(spendsWithWitness);
    s.u32(2);
    if (witness) s.u8x2(0x00, 0x01);
    s.compactSize(inputs.length);
    inputs.forEach((input, i) => {
      s.bytes(Buffer.from(input.txid, 'hex').reverse());
      s.u32(input.vout);
      writeScriptSig(s, REPRESENTATIVE[kinds[i]!]!, this.noise, this.prng);
      s.u32(0xfffffffd); // BIP125-replaceable, as most wallets send today
    });
    s.compactSize(outputs.length);
    for (const o of outputs) {
      s.u64(o.value);
      s.compactSize(o.script.length);
      s.bytes(o.script);
    }
    if (witness) for (const kind of kinds) writeWitness(s, REPRESENTATIVE[kind]!, this.noise, this.prng);
    s.u32(0);
    return s.copy();
  }
}
