/**
 * The scale benchmark's chain generator (bench/scale): a small chain parsed back with our own parser must be a valid
 * chain (links, merkle roots, witness commitments, BIP34 heights, proof of work, prevouts that exist and are
 * unspent, mature coinbases, inputs >= outputs, coinbase <= subsidy + fees), be the same for the same seed, have the
 * shape it promises, and round-trip through the block files. Its tracked balances must equal the parsed chain's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { classifyScript } from '../../src/chains/script/classify.js';
import { coinbaseHeight, merkleRoot, parseBlock, targetFromBits, witnessCommitmentOk } from '../../src/chains/parsing.js';
import type { Block } from '../../src/core/index.js';
import { BlockFileWriter, ChainFiles } from '../../bench/scale/block-files.js';
import { params } from '../../bench/scale/chain-params.js';
import { ChainGenerator } from '../../bench/scale/chain-generator.js';
import { subsidy } from '../../bench/scale/chain-shape.js';
import type { StatsSummary } from '../../bench/scale/generator-stats.js';
import { writeOutputScript } from '../../bench/scale/script-kinds.js';
import { ByteSink } from '../../bench/scale/byte-sink.js';

const SHAPE = { blockTxs: 300 };
const BLOCKS = 200; // 100 coinbase-only blocks (maturity), then ~100 blocks of ~300 txs

interface Generated {
  blocks: Block[];
  stats: StatsSummary;
  dir: string;
}

function generate(seed: number, blocks: number, trackedIds: number[] = [], dir?: string): Generated {
  const generator = new ChainGenerator(seed, SHAPE, trackedIds);
  const writer = dir ? new BlockFileWriter(dir) : null;
  const parsed: Block[] = [];
  for (let h = 0; h < blocks; h++) {
    const block = generator.next();
    writer?.append(block);
    parsed.push(parseBlock(Uint8Array.from(block.bytes), params.features));
    assert.equal(parsed[h]!.header.hash, Buffer.from(block.hash).reverse().toString('hex'));
  }
  writer?.close({});
  return { blocks: parsed, stats: generator.stats.summary(), dir: dir ?? '' };
}

const trackedIds = [0, 1, 2, 5];
let chain: Generated;
let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'outpoint-scale-chain-'));
  chain = generate(7, BLOCKS, trackedIds, dir);
});

after(() => rmSync(dir, { recursive: true, force: true }));

describe('scale chain generator', () => {
  it('starts at Bitcoin regtest genesis and links every block to the previous one', () => {
    assert.equal(chain.blocks[0]!.header.hash, params.genesisHash);
    for (let h = 1; h < chain.blocks.length; h++) {
      const { header } = chain.blocks[h]!;
      assert.equal(header.prevHash, chain.blocks[h - 1]!.header.hash, `prev of ${h}`);
      assert.ok(header.time > chain.blocks[h - 1]!.header.time, `time of ${h}`);
    }
  });

  it('writes valid headers, merkle roots, witness commitments and BIP34 heights', () => {
    for (let h = 1; h < chain.blocks.length; h++) {
      const block = chain.blocks[h]!;
      assert.equal(block.header.merkleRoot, merkleRoot(block.txs.map((tx) => tx.txid)), `merkle root of ${h}`);
      assert.equal(witnessCommitmentOk(block), true, `witness commitment of ${h}`);
      assert.equal(coinbaseHeight(block.txs[0]!), h, `BIP34 height of ${h}`);
      assert.ok(BigInt(`0x${block.header.hash}`) <= targetFromBits(block.header.bits), `proof of work of ${h}`);
    }
  });

  it('spends only existing, unspent, mature outputs, never more than they hold, and pays the miner at most subsidy + fees', () => {
    const unspent = new Map<string, { value: bigint; height: number; coinbase: boolean }>();
    const txids = new Set<string>();
    let spends = 0;
    for (const [h, block] of chain.blocks.entries()) {
      let fees = 0n;
      for (const tx of block.txs) {
        assert.ok(!txids.has(tx.txid), `duplicate txid ${tx.txid}`);
        txids.add(tx.txid);
        let valueIn = 0n;
        if (!tx.isCoinbase) {
          for (const input of tx.inputs) {
            const key = `${input.prevTxid}:${input.prevVout}`;
            const prevout = unspent.get(key);
            assert.ok(prevout, `block ${h} tx ${tx.txid} spends missing or spent ${key}`);
            if (prevout.coinbase) assert.ok(h - prevout.height >= params.coinbaseMaturity, `immature coinbase spent at ${h}`);
            unspent.delete(key);
            valueIn += prevout.value;
            spends++;
          }
        }
        const valueOut = tx.outputs.reduce((sum, o) => sum + o.value, 0n);
        if (!tx.isCoinbase) {
          assert.ok(valueIn >= valueOut, `tx ${tx.txid} creates value`);
          fees += valueIn - valueOut;
        }
        tx.outputs.forEach((o, vout) => {
          if (o.script[0] !== 0x6a) unspent.set(`${tx.txid}:${vout}`, { value: o.value, height: h, coinbase: tx.isCoinbase });
        });
      }
      if (h > 0) {
        const claimed = block.txs[0]!.outputs.reduce((sum, o) => sum + o.value, 0n);
        assert.ok(claimed <= BigInt(subsidy(h)) + fees, `coinbase of ${h} claims too much`);
      }
    }
    assert.ok(spends > 20_000, `only ${spends} spends`);
  });

  it('is deterministic from its seed, and a shorter chain is a prefix of a longer one', () => {
    const again = generate(7, 120);
    assert.deepEqual(again.blocks.map((b) => b.header.hash), chain.blocks.slice(0, 120).map((b) => b.header.hash));
    const other = generate(8, 120);
    assert.notEqual(other.blocks[119]!.header.hash, chain.blocks[119]!.header.hash);
  });

  it('has the promised shape: means, script kinds, reuse, payouts, OP_RETURN and same-block spends', () => {
    const { stats } = chain;
    assert.ok(stats.meanInputs > 2.0 && stats.meanInputs < 2.6, `mean inputs ${stats.meanInputs}`);
    assert.ok(stats.meanOutputs > 2.3 && stats.meanOutputs < 2.9, `mean outputs ${stats.meanOutputs}`);
    const kinds = new Set<string>();
    let payouts = 0;
    let opReturns = 0;
    const perScript = new Map<string, number>();
    const created = new Map<string, number>();
    let sameBlock = 0;
    for (const [h, block] of chain.blocks.entries()) {
      for (const tx of block.txs) {
        if (tx.outputs.length >= 5000) payouts++;
        if (!tx.isCoinbase) for (const input of tx.inputs) if (created.get(input.prevTxid) === h) sameBlock++;
        created.set(tx.txid, h);
        for (const o of tx.outputs) {
          kinds.add(classifyScript(o.script));
          if (o.script[0] === 0x6a && !tx.isCoinbase) opReturns++;
          const key = Buffer.from(o.script).toString('hex');
          perScript.set(key, (perScript.get(key) ?? 0) + 1);
        }
      }
    }
    for (const kind of ['pubkeyhash', 'scripthash', 'witness_v0_keyhash', 'witness_v0_scripthash', 'witness_v1_taproot', 'multisig', 'pubkey', 'nulldata']) assert.ok(kinds.has(kind), `no ${kind} output (${[...kinds].join(', ')})`);
    assert.ok(payouts >= 1, 'no 5,000-output payout');
    assert.ok(opReturns > 100, `${opReturns} OP_RETURN outputs`);
    assert.ok(sameBlock > 1000, `${sameBlock} same-block spends`);
    const counts = [...perScript.values()].sort((a, b) => b - a);
    assert.ok(counts[0]! > 200, `hottest script has ${counts[0]} outputs`);
    assert.ok(counts.filter((c) => c === 1).length > perScript.size / 2, 'most scripts are used once (long tail)');
  });

  it('tracks balances that equal the parsed chain', () => {
    assert.equal(chain.stats.tracked.length, trackedIds.length);
    for (const t of chain.stats.tracked) {
      const sink = new ByteSink(256);
      writeOutputScript(sink, t.id);
      const hex = Buffer.from(sink.buf.subarray(1, sink.pos)).toString('hex');
      const values = new Map<string, bigint>();
      let balance = 0n;
      let received = 0n;
      for (const block of chain.blocks) {
        for (const tx of block.txs) {
          if (!tx.isCoinbase) {
            for (const input of tx.inputs) balance -= values.get(`${input.prevTxid}:${input.prevVout}`) ?? 0n;
          }
          tx.outputs.forEach((o, vout) => {
            if (Buffer.from(o.script).toString('hex') !== hex) return;
            values.set(`${tx.txid}:${vout}`, o.value);
            balance += o.value;
            received += o.value;
          });
        }
      }
      assert.ok(received > 0n, `tracked id ${t.id} never paid`);
      const last = t.history[t.history.length - 1]!;
      assert.equal(BigInt(last[1]), balance, `balance of tracked id ${t.id}`);
      assert.equal(BigInt(last[2]), received, `received by tracked id ${t.id}`);
    }
  });

  it('round-trips through the block files and finds heights by transaction count', async () => {
    const files = ChainFiles.open(dir);
    try {
      assert.equal(files.tipHeight, BLOCKS - 1);
      let txs = 0;
      for (const h of [0, 1, 100, 150, BLOCKS - 1]) {
        const raw = await files.readBlock(h);
        assert.deepEqual(Uint8Array.from(raw), Uint8Array.from(chain.blocks[h]!.raw));
        assert.equal(files.hashAt(h), chain.blocks[h]!.header.hash);
        assert.equal(files.heightOf(chain.blocks[h]!.header.hash), h);
      }
      for (let h = 0; h < BLOCKS; h++) {
        txs += chain.blocks[h]!.txs.length;
        assert.equal(files.txsThrough(h), txs);
      }
      assert.equal(files.heightForTxs(files.txsThrough(150)), 150);
      assert.equal(files.heightForTxs(files.txsThrough(150) + 1), 151);
    } finally {
      await files.close();
    }
  });
});

