import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { ParseError } from '../../core/domain/errors.js';
import { toHex } from '../hash.js';
import type { ChainFeatures } from '../network-params.js';
import { serializeTransaction } from '../tx/tx-serializer.js';
import { auxPowChainId } from './auxpow.js';
import { parseBlock } from './block-parser.js';
import { peekBlock } from './block-peek.js';
import { coinbaseHeight } from './coinbase.js';
import { difficultyFromBits } from './difficulty.js';
import { merkleRoot, witnessCommitmentOk } from './merkle.js';

const FIXTURES = new URL('../../../../shared/fixtures/blocks/', import.meta.url);

// Local on purpose: the network params module is owned elsewhere; these are the parser's needs only.
const FEATURES: Record<string, ChainFeatures> = {
  BTC: { segwit: true, mweb: false, auxpow: false },
  BTCTEST: { segwit: true, mweb: false, auxpow: false },
  LTC: { segwit: true, mweb: true, auxpow: false },
  LTCTEST: { segwit: true, mweb: true, auxpow: false },
  DOGE: { segwit: false, mweb: false, auxpow: true },
  DOGETEST: { segwit: false, mweb: false, auxpow: true },
};

interface TxExpect {
  txid: string;
  wtxid: string;
  version: number;
  locktime: number;
  size: number;
  weight: number;
  vsize: number;
  vin_count: number;
  vout_count: number;
  vin: { prev_txid?: string; prev_vout?: number; coinbase?: string; scriptSig?: string; sequence: number; witness?: string[] }[];
  vout: { value_sat: number; script_hex: string }[];
}

interface BlockFixture {
  network: string;
  height: number | null;
  hash: string;
  hex: string;
  expected: {
    hash: string;
    version: number;
    prev_hash: string;
    merkle_root: string;
    time: number;
    bits: string;
    nonce: number;
    difficulty: number;
    size: number;
    stripped_size?: number;
    weight?: number;
    tx_count: number;
    coinbase_script: string;
    coinbase_bip34_height_push: number | null;
    coinbase_total_out_sat: number;
    txids: string[];
    txs: TxExpect[];
    witness_commitment?: { ok: boolean };
    auxpow?: {
      present: boolean;
      chain_id?: number;
      parent_coinbase_txid?: string;
      parent_coinbase_hex?: string;
      parent_block_hash_field?: string;
      coinbase_merkle_branch?: string[];
      coinbase_merkle_index?: number;
      chain_merkle_branch?: string[];
      chain_merkle_index?: number;
      parent_header_hex?: string;
      parent_header_sha256d_hash?: string;
      parent_header_merkle_root?: string;
      parent_header_bits?: string;
      parent_header_time?: number;
      parent_header_nonce?: number;
      auxpow_bytes?: number;
      tx_count_offset?: number;
    };
    mweb?: {
      present: boolean;
      hogex_txid?: string;
      extension_offset?: number;
      extension_bytes?: number;
      mweb_header?: {
        height: number;
        output_root: string;
        kernel_root: string;
        leafset_root: string;
        kernel_offset: string;
        stealth_offset: string;
        output_mmr_size: number;
        kernel_mmr_size: number;
      };
      mweb_header_hash_blake3?: string;
      hogex_output0_commits_to_mweb_header_hash?: boolean;
      mweb_txbody_bytes?: number;
    };
  };
}

const fixtures = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: f, data: JSON.parse(readFileSync(new URL(f, FIXTURES), 'utf8')) as BlockFixture }));

void test('fixture directory is present', () => {
  assert.ok(fixtures.length >= 27, `found ${fixtures.length} block fixtures`);
});

for (const { file, data } of fixtures) {
  void test(`block fixture ${file}`, () => {
    const features = FEATURES[data.network];
    assert.ok(features, `unknown network ${data.network}`);
    const bytes = Buffer.from(data.hex, 'hex');
    const block = parseBlock(bytes, features);
    const e = data.expected;
    const h = block.header;

    assert.equal(h.hash, data.hash);
    assert.equal(h.hash, e.hash);
    // The fetcher's cheap look (initial load): the same hash and tx count without parsing the txs.
    assert.deepEqual(peekBlock(bytes, features), { hash: h.hash, txCount: block.txs.length });
    assert.equal(h.prevHash, e.prev_hash);
    assert.equal(h.merkleRoot, e.merkle_root);
    assert.equal(h.version, e.version);
    assert.equal(h.time, e.time);
    assert.equal(h.bits, Number.parseInt(e.bits, 16));
    assert.equal(h.nonce, e.nonce);
    assert.equal(toHex(h.raw), data.hex.slice(0, 160));
    assert.ok(Math.abs(difficultyFromBits(h.bits) - e.difficulty) <= e.difficulty * 1e-12);

    assert.equal(block.size, e.size);
    assert.equal(block.raw.length, bytes.length);
    if (e.stripped_size !== undefined) assert.equal(block.strippedSize, e.stripped_size);
    if (e.weight !== undefined) assert.equal(block.weight, e.weight);
    if (!features.segwit) {
      // No witness anywhere: stripped size is the size and weight is 4x (AuxPoW bytes included).
      assert.equal(block.strippedSize, block.size);
      assert.equal(block.weight, block.size * 4);
    }

    assert.equal(block.txs.length, e.tx_count);
    const txids = block.txs.map((tx) => tx.txid);
    assert.deepEqual(txids, e.txids);
    assert.equal(merkleRoot(txids), h.merkleRoot);

    const coinbase = block.txs[0]!;
    assert.equal(coinbase.isCoinbase, true);
    assert.equal(toHex(coinbase.inputs[0]!.scriptSig), e.coinbase_script);
    assert.equal(coinbase.outputs.reduce((sum, o) => sum + o.value, 0n), BigInt(e.coinbase_total_out_sat));
    if (e.coinbase_bip34_height_push !== null) assert.equal(coinbaseHeight(coinbase), e.coinbase_bip34_height_push);
    if (e.witness_commitment) assert.equal(witnessCommitmentOk(block), e.witness_commitment.ok);

    for (const [i, t] of e.txs.entries()) {
      const tx = block.txs[i]!;
      assert.equal(tx.txid, t.txid);
      assert.equal(tx.wtxid, t.wtxid);
      assert.equal(tx.version, t.version);
      assert.equal(tx.locktime, t.locktime);
      assert.equal(tx.size, t.size);
      assert.equal(tx.weight, t.weight);
      assert.equal(tx.vsize, t.vsize);
      assert.equal(tx.inputs.length, t.vin_count);
      assert.equal(tx.outputs.length, t.vout_count);
      for (const [k, vin] of t.vin.entries()) {
        const input = tx.inputs[k]!;
        if (vin.coinbase === undefined) {
          assert.equal(input.prevTxid, vin.prev_txid);
          assert.equal(input.prevVout, vin.prev_vout);
          assert.equal(toHex(input.scriptSig), vin.scriptSig);
        }
        assert.equal(input.sequence, vin.sequence);
        assert.deepEqual(input.witness.map(toHex), vin.witness ?? []);
      }
      for (const [k, vout] of t.vout.entries()) {
        assert.equal(tx.outputs[k]!.value, BigInt(vout.value_sat));
        assert.equal(toHex(tx.outputs[k]!.script), vout.script_hex);
      }
      assert.equal(toHex(serializeTransaction(tx)), toHex(tx.raw));
    }

    const aux = e.auxpow;
    if (aux?.present) {
      const a = block.auxpow;
      assert.ok(a);
      assert.equal(auxPowChainId(h.version), aux.chain_id);
      assert.equal(a.parentCoinbase.txid, aux.parent_coinbase_txid);
      assert.equal(toHex(a.parentCoinbase.raw), aux.parent_coinbase_hex);
      assert.equal(a.parentBlockHash, aux.parent_block_hash_field);
      assert.deepEqual(a.coinbaseBranch, aux.coinbase_merkle_branch);
      assert.equal(a.coinbaseIndex, aux.coinbase_merkle_index);
      assert.deepEqual(a.chainBranch, aux.chain_merkle_branch);
      assert.equal(a.chainIndex, aux.chain_merkle_index);
      assert.equal(toHex(a.parentHeader.raw), aux.parent_header_hex);
      assert.equal(a.parentHeader.hash, aux.parent_header_sha256d_hash);
      assert.equal(a.parentHeader.merkleRoot, aux.parent_header_merkle_root);
      assert.equal(a.parentHeader.bits, Number.parseInt(aux.parent_header_bits!, 16));
      assert.equal(a.parentHeader.time, aux.parent_header_time);
      assert.equal(a.parentHeader.nonce, aux.parent_header_nonce);
      // AuxPoW bytes end where the tx count starts.
      assert.equal(80 + aux.auxpow_bytes!, aux.tx_count_offset);
      const auxEnd = a.parentHeader.raw.byteOffset + 80 - block.raw.byteOffset;
      assert.equal(auxEnd, aux.tx_count_offset);
    } else {
      assert.equal(block.auxpow, null);
    }

    const mw = e.mweb;
    if (mw?.present) {
      const m = block.mweb;
      assert.ok(m);
      const mh = mw.mweb_header!;
      assert.equal(m.height, mh.height);
      assert.equal(m.height, data.height);
      assert.equal(m.outputRoot, mh.output_root);
      assert.equal(m.kernelRoot, mh.kernel_root);
      assert.equal(m.leafsetRoot, mh.leafset_root);
      assert.equal(m.kernelOffset, mh.kernel_offset);
      assert.equal(m.stealthOffset, mh.stealth_offset);
      assert.equal(m.outputMmrSize, BigInt(mh.output_mmr_size));
      assert.equal(m.kernelMmrSize, BigInt(mh.kernel_mmr_size));
      assert.equal(m.headerHash, mw.mweb_header_hash_blake3);
      // extension_bytes counts the presence byte; raw starts after it.
      assert.equal(m.raw.length + 1, mw.extension_bytes);
      assert.equal(m.raw.byteOffset - block.raw.byteOffset - 1, mw.extension_offset);
      const hogex = block.txs[block.txs.length - 1]!;
      assert.equal(hogex.isHogEx, true);
      assert.equal(hogex.txid, mw.hogex_txid);
      assert.equal(hogex.wtxid, hogex.txid);
      assert.equal(toHex(hogex.outputs[0]!.script), `5820${m.headerHash}`);
      assert.equal(m.numInputs + m.numOutputs + m.numKernels > 0, mw.mweb_txbody_bytes! > 3);
    } else {
      assert.equal(block.mweb, null);
    }
  });
}

// Every cut point of blocks up to 10 KB (MWEB extensions included: LTCTEST-2215584 has a full MW body);
// for the two bigger ones (quadratic cost, ~15 s on a shared 2-core box) every cut in the first 2 KB
// and the last 1 KB and every 31st elsewhere. Every cut of every standalone tx is in tx-parser.test.ts.
void test('every truncation of every fixture block throws ParseError', () => {
  for (const { file, data } of fixtures) {
    const bytes = Buffer.from(data.hex, 'hex');
    const features = FEATURES[data.network]!;
    const full = bytes.length <= 10_000;
    for (let n = 0; n < bytes.length; n++) {
      if (!full && n > 2_000 && n < bytes.length - 1_000 && n % 31 !== 0) continue;
      assert.throws(() => parseBlock(bytes.subarray(0, n), features), ParseError, `${file} cut at ${n}`);
    }
    assert.throws(() => parseBlock(Buffer.concat([bytes, Buffer.of(0)]), features), ParseError, `${file} + 1 byte`);
  }
});

void test('an AuxPoW block does not parse without the AuxPoW feature', () => {
  const { data } = fixtures.find((f) => f.file === 'DOGE-371337.json')!;
  assert.throws(() => parseBlock(Buffer.from(data.hex, 'hex'), FEATURES['BTC']!), ParseError);
});

void test('an MWEB block does not parse without the MWEB feature', () => {
  const { data } = fixtures.find((f) => f.file === 'LTC-2383209.json')!;
  assert.throws(() => parseBlock(Buffer.from(data.hex, 'hex'), FEATURES['BTC']!), ParseError);
});
