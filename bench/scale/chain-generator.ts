/**
 * Generates the synthetic chain block by block, deterministically from a seed (see chain-shape.ts for the shape and
 * script-kinds.ts for the scripts). Every transaction spends outputs that exist and are unspent (earlier blocks, or
 * earlier in the same block), pays fees (inputs >= outputs) and has its real txid; blocks carry correct merkle roots,
 * witness commitments, BIP34 heights, prev-hash links and regtest proof of work. Height 0 is Bitcoin regtest's genesis.
 */
import { ByteSink } from './byte-sink.js';
import {
  blockTxCount, chooseAddress, DUST, feeRate, inputCount, OLD_AGE, OLD_STOCK, OP_RETURN_SHARE, outputCount, PAYOUT_OUTPUTS,
  PAYOUT_SHARE, spendAge, subsidy, type ShapeOptions,
} from './chain-shape.js';
import { merkleOf, regtestGenesis, REGTEST_GENESIS_TIME, sha256d, writeCoinbase, writeHeader } from './block-assembly.js';
import { Prng, fmix32 } from './prng.js';
import { GeneratorStats } from './generator-stats.js';
import {
  INPUT_VBYTES, kindOf, MAX_INPUT_BYTES, MAX_OUTPUT_BYTES, OUTPUT_BYTES, SignatureNoise, spendsWithWitness,
  writeOutputScript, writeScriptSig, writeWitness,
} from './script-kinds.js';
import { UtxoPool } from './utxo-pool.js';

const COINBASE_MATURITY = 100;
/** Pool payout addresses: the first ids, so they are also among the hottest addresses. */
const POOL_ADDRESSES = 12;
const MAX_INPUTS = 200;
const MAX_OUTPUTS = PAYOUT_OUTPUTS + 1;
/** A payout gathers inputs until they cover this much per output (and its fee). */
const PAYOUT_PER_OUTPUT = 30_000;
/** Outputs below this many satoshis are spent only one time in ten they are drawn. */
const UNECONOMIC = 5_000;

export interface GeneratedBlock {
  readonly height: number;
  /** Valid until the next call of next(): the generator reuses the buffer. */
  readonly bytes: Uint8Array;
  /** Internal byte order. */
  readonly hash: Uint8Array;
  readonly txCount: number;
  readonly time: number;
}

export class ChainGenerator {
  readonly stats: GeneratorStats;
  private readonly prng: Prng;
  private readonly noise: SignatureNoise;
  private readonly pool = new UtxoPool(COINBASE_MATURITY);
  private readonly block = new ByteSink(4 << 20);
  private readonly body = new ByteSink(4 << 20);
  private readonly coinbase = new ByteSink(512);
  private readonly scratch = new ByteSink(1 << 20);
  private txids: Uint8Array = new Uint8Array(32 * 4096);
  private wtxids: Uint8Array = new Uint8Array(32 * 4096);
  private txCount = 0;
  private fees = 0;
  private height = -1;
  private prevHash = new Uint8Array(32);
  private nextAddr = POOL_ADDRESSES;
  private readonly inSlots = new Int32Array(MAX_INPUTS);
  private readonly outAddrs = new Uint32Array(MAX_OUTPUTS);
  private readonly outValues = new Float64Array(MAX_OUTPUTS);

  constructor(
    seed: number,
    private readonly shape: ShapeOptions,
    trackedIds: readonly number[] = [],
  ) {
    this.prng = new Prng(seed);
    this.noise = new SignatureNoise(this.prng);
    this.stats = new GeneratorStats(trackedIds);
  }

  get tipHeight(): number {
    return this.height;
  }

  next(): GeneratedBlock {
    this.height++;
    const h = this.height;
    this.pool.beginHeight(h);
    if (h === 0) return this.finish(regtestGenesis(), 1, REGTEST_GENESIS_TIME);
    this.body.reset();
    this.txCount = 1; // slot 0: the coinbase, written last
    this.fees = 0;
    const target = blockTxCount(this.prng, this.shape);
    // Bootstrapping: while few outputs exist, mature coinbases are paid out to many addresses (pool payouts).
    for (let i = 0; i < 3 && this.pool.live < 4 * this.shape.blockTxs; i++) if (!this.makeTx(true)) break;
    while (this.txCount < target && this.makeTx(this.prng.float() < PAYOUT_SHARE));
    const time = REGTEST_GENESIS_TIME + h * 600 + (fmix32(h) % 300);
    return this.assemble(time);
  }

  /** Writes one transaction into the body; false when no spendable output was found for it. */
  private makeTx(payout: boolean): boolean {
    const { prng, pool, stats } = this;
    const h = this.height;
    let nIn = 0;
    let total = 0;
    const wanted = payout ? MAX_INPUTS : inputCount(prng);
    const need = payout ? PAYOUT_OUTPUTS * PAYOUT_PER_OUTPUT : 0;
    while (nIn < wanted && (!payout || total < need)) {
      const slot = this.pickInput();
      if (slot < 0) break;
      pool.spend(slot);
      this.inSlots[nIn++] = slot;
      total += pool.values[slot]!;
      stats.spent(h - pool.heights[slot]!, pool.created - pool.seqs[slot]!, pool.addrs[slot]!, pool.values[slot]!);
    }
    if (nIn === 0) return false;

    // Outputs: recipients, then the fee from the estimated size, then the values.
    const firstAddr = pool.addrs[this.inSlots[0]!]!;
    let nOut = payout ? PAYOUT_OUTPUTS : outputCount(prng);
    let vbytes = 11;
    let witness = false;
    for (let i = 0; i < nIn; i++) {
      const kind = kindOf(pool.addrs[this.inSlots[i]!]!);
      vbytes += INPUT_VBYTES[kind]!;
      if (spendsWithWitness(kind)) witness = true;
    }
    for (let i = 0; i < nOut; i++) {
      const addr = chooseAddress(prng, this.nextAddr, firstAddr);
      if (addr === this.nextAddr) this.nextAddr++;
      this.outAddrs[i] = addr;
      vbytes += OUTPUT_BYTES[kindOf(addr)]!;
    }
    const opReturn = prng.float() < OP_RETURN_SHARE ? prng.between(4, 80) : 0;
    let fee = Math.round(feeRate(prng) * vbytes);
    if (fee > total / 2) fee = Math.floor(total / 2);
    const spendable = total - fee;
    if (spendable < nOut * DUST) nOut = Math.max(1, Math.floor(spendable / DUST));
    this.splitValues(spendable, nOut, payout);

    // Serialization, straight into the block body.
    const body = this.body;
    body.reserve(64 + nIn * MAX_INPUT_BYTES + nOut * MAX_OUTPUT_BYTES + 100);
    const start = body.pos;
    body.u32(prng.float() < 0.9 ? 2 : 1);
    if (witness) body.u8x2(0, 1);
    const sequence = sequenceOf(prng.float());
    body.compactSize(nIn);
    for (let i = 0; i < nIn; i++) {
      const slot = this.inSlots[i]!;
      body.bytes(pool.txids, slot * 32, slot * 32 + 32);
      body.u32(pool.vouts[slot]!);
      writeScriptSig(body, pool.addrs[slot]!, this.noise, prng);
      body.u32(sequence);
    }
    body.compactSize(nOut + (opReturn > 0 ? 1 : 0));
    for (let i = 0; i < nOut; i++) {
      body.u64(this.outValues[i]!);
      writeOutputScript(body, this.outAddrs[i]!);
    }
    if (opReturn > 0) this.writeOpReturn(opReturn);
    const witnessAt = body.pos;
    if (witness) for (let i = 0; i < nIn; i++) writeWitness(body, pool.addrs[this.inSlots[i]!]!, this.noise, prng);
    body.u32(prng.float() < 0.4 ? h - 1 : 0);
    const txid = this.txid(body, start, witness ? witnessAt : -1);

    this.fees += fee;
    for (let i = 0; i < nOut; i++) this.addOutput(txid, i, this.outValues[i]!, this.outAddrs[i]!, false);
    stats.tx(nIn, nOut, opReturn > 0, payout, witness);
    return true;
  }

  /**
   * An output to spend: its age drawn from the spend-age distribution, drawn again (up to 4 times) when nothing of
   * that age is left, so exhausted ages do not push their demand onto their neighbours; then any output.
   */
  private pickInput(): number {
    const { prng, pool } = this;
    for (let attempt = 0; attempt < 4; attempt++) {
      const age = spendAge(prng);
      const slot = age === OLD_STOCK ? pool.pickOld(prng, OLD_AGE) : pool.pickAt(prng, age);
      // Wallets rarely spend outputs worth less than the fee to spend them: most dust stays unspent, as on mainnet.
      if (slot >= 0 && (pool.values[slot]! >= UNECONOMIC || prng.float() < 0.1)) return slot;
    }
    return pool.pickAny(prng);
  }

  private addOutput(txid: Uint8Array, vout: number, value: number, addr: number, coinbase: boolean): void {
    this.stats.received(addr, value);
    this.pool.add(txid, vout, value, addr, coinbase);
  }

  /** Payment + change, or payout-like splits: every value at least DUST, summing to exactly `amount`. */
  private splitValues(amount: number, n: number, payout: boolean): void {
    const { prng, outValues } = this;
    if (n === 1) {
      outValues[0] = amount;
      return;
    }
    const free = amount - n * DUST;
    let weightSum = 0;
    for (let i = 0; i < n; i++) {
      const w = payout ? 0.5 + prng.float() : n === 2 ? 0.02 + 0.96 * prng.float() : -Math.log(1 - prng.float());
      outValues[i] = w;
      weightSum += w;
    }
    if (n === 2) weightSum = 1;
    let left = amount;
    for (let i = 0; i < n - 1; i++) {
      const v = DUST + Math.floor((free * outValues[i]!) / weightSum);
      outValues[i] = Math.min(v, left - (n - 1 - i) * DUST);
      left -= outValues[i]!;
    }
    outValues[n - 1] = left;
  }

  private writeOpReturn(len: number): void {
    const body = this.body;
    body.u64(0);
    body.compactSize(len + (len > 75 ? 3 : 2));
    body.u8(0x6a);
    if (len > 75) body.u8(0x4c);
    body.u8(len);
    for (let i = 0; i < len; i++) body.u8(this.prng.u32() & 0xff);
  }

  /** txid (and wtxid) of the tx at [start, body.pos), recorded in the block's lists; returns the txid. */
  private txid(body: ByteSink, start: number, witnessAt: number): Uint8Array {
    this.growTxLists();
    const end = body.pos;
    let txid: Uint8Array;
    if (witnessAt < 0) {
      txid = sha256d(body.buf.subarray(start, end));
      this.wtxids.set(txid, this.txCount * 32);
    } else {
      const s = this.scratch;
      s.reset();
      s.reserve(end - start);
      s.bytes(body.buf, start, start + 4);
      s.bytes(body.buf, start + 6, witnessAt);
      s.bytes(body.buf, end - 4, end);
      txid = sha256d(s.buf.subarray(0, s.pos));
      this.wtxids.set(sha256d(body.buf.subarray(start, end)), this.txCount * 32);
    }
    this.txids.set(txid, this.txCount * 32);
    this.txCount++;
    return txid;
  }

  private growTxLists(): void {
    if ((this.txCount + 1) * 32 <= this.txids.length) return;
    const grow = (a: Uint8Array): Uint8Array => {
      const next = new Uint8Array(a.length * 2);
      next.set(a);
      return next;
    };
    this.txids = grow(this.txids);
    this.wtxids = grow(this.wtxids);
  }

  /** Coinbase (slot 0), header, and the block's bytes. */
  private assemble(time: number): GeneratedBlock {
    const h = this.height;
    const poolAddr = this.prng.below(POOL_ADDRESSES);
    const reward = subsidy(h) + this.fees;
    const scriptSink = this.scratch;
    scriptSink.reset();
    writeOutputScript(scriptSink, poolAddr);
    const poolScript = scriptSink.copy();
    this.wtxids.fill(0, 0, 32); // the coinbase's wtxid counts as zero
    const witnessRoot = merkleOf(this.wtxids, this.txCount);
    const cb = this.coinbase;
    cb.reset();
    writeCoinbase(cb, h, reward, poolScript, witnessRoot);
    // txid of the coinbase: without marker/flag (bytes 4-5) and its 34-byte witness before the locktime.
    const s = this.scratch;
    s.reset();
    s.reserve(cb.pos);
    s.bytes(cb.buf, 0, 4);
    s.bytes(cb.buf, 6, cb.pos - 4 - 34);
    s.bytes(cb.buf, cb.pos - 4, cb.pos);
    const coinbaseTxid = sha256d(s.buf.subarray(0, s.pos));
    this.txids.set(coinbaseTxid, 0);
    this.addOutput(coinbaseTxid, 0, reward, poolAddr, true);
    this.stats.coinbase();

    const block = this.block;
    block.reset();
    block.reserve(100 + cb.pos + this.body.pos);
    const blockHash = writeHeader(block, this.prevHash, merkleOf(this.txids, this.txCount), time);
    block.compactSize(this.txCount);
    block.bytes(cb.buf, 0, cb.pos);
    block.bytes(this.body.buf, 0, this.body.pos);
    return this.finish(block.buf.subarray(0, block.pos), this.txCount, time, blockHash);
  }

  private finish(bytes: Uint8Array, txCount: number, time: number, blockHash: Uint8Array = sha256d(bytes.subarray(0, 80))): GeneratedBlock {
    this.prevHash = Uint8Array.from(blockHash);
    this.stats.block(this.height, bytes.length, this.nextAddr, this.pool.live);
    return { height: this.height, bytes, hash: this.prevHash, txCount, time };
  }
}

/** nSequence: final (60 %), BIP125 opt-in replaceable (30 %), locktime-enabled non-RBF (10 %). */
function sequenceOf(u: number): number {
  if (u < 0.6) return 0xffffffff;
  if (u < 0.9) return 0xfffffffd;
  return 0xfffffffe;
}
