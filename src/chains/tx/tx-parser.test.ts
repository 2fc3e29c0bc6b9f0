import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { ParseError } from '../../core/domain/errors.js';
import type { Transaction } from '../../core/domain/chain-types.js';
import { toHex } from '../hash.js';
import { parseTransaction } from './tx-parser.js';
import { serializeTransaction } from './tx-serializer.js';

// The fixtures live next to the repository clone: <repo>/../shared/fixtures.
const FIXTURES = new URL('../../../../shared/fixtures/txs/', import.meta.url);

interface TxFixture {
  network: string;
  txid: string;
  hex: string;
  validation: string;
  expected: Record<string, unknown> & {
    txid: string;
    version: number;
    locktime: number;
    size: number;
    vin?: { prev_txid?: string; prev_vout?: number; coinbase?: string; scriptSig?: string; sequence: number; witness?: string[] }[];
    vout?: { value_sat: number | string; script_hex: string }[];
  };
}

const fixtures = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: f, data: JSON.parse(readFileSync(new URL(f, FIXTURES), 'utf8')) as TxFixture }));

const isLitecoin = (network: string): boolean => network.startsWith('LTC');

void test('fixture directory is present', () => {
  assert.ok(fixtures.length >= 40, `found ${fixtures.length} tx fixtures`);
});

for (const { file, data } of fixtures) {
  void test(`tx fixture ${file}`, () => {
    const bytes = Buffer.from(data.hex, 'hex');
    const tx = parseTransaction(bytes, { mweb: isLitecoin(data.network) });
    const e = data.expected;
    // MWEB-only txids (LTC-mweb-only-*) are "NOT independently validated" by the fixtures; we recompute
    // them as BLAKE3 of the first kernel (ltcd's TxHash), so equality with the source's id checks that too.
    assert.equal(tx.txid, data.txid);
    assert.equal(tx.txid, e.txid);
    assert.equal(tx.version, e.version);
    assert.equal(tx.locktime, e.locktime);
    assert.equal(tx.size, e.size);
    assert.equal(tx.raw.length, bytes.length);
    if (e.wtxid !== undefined) assert.equal(tx.wtxid, e.wtxid);
    // The fixture's weight for an MWEB mempool-form tx was computed without the MWEB part; litecoind
    // (checked in test/integration/regtest-parity.test.ts) adds 164 per peg-in kernel and 4x peg-out bytes.
    const mwebExtra = tx.hasMwebBody ? tx.weight - weightWithoutMweb(tx) : 0;
    if (e.weight !== undefined) assert.equal(tx.weight - mwebExtra, e.weight);
    if (e.vsize !== undefined) assert.equal(Math.ceil((tx.weight - mwebExtra) / 4), e.vsize);
    if (e.has_witness !== undefined) assert.equal(tx.hasWitness, e.has_witness);
    if (e.is_coinbase !== undefined) assert.equal(tx.isCoinbase, e.is_coinbase);
    if (e.vin_count !== undefined) assert.equal(tx.inputs.length, e.vin_count);
    if (e.vout_count !== undefined) assert.equal(tx.outputs.length, e.vout_count);
    if (e.canonical_vin_count !== undefined) assert.equal(tx.inputs.length, e.canonical_vin_count);
    if (e.canonical_vout_count !== undefined) assert.equal(tx.outputs.length, e.canonical_vout_count);
    if (e.serialization_flag !== undefined) {
      assert.equal(bytes[5], e.serialization_flag);
      assert.equal(tx.isHogEx || tx.hasMwebBody, true);
    }
    for (const [i, vin] of (e.vin ?? []).entries()) {
      const input = tx.inputs[i]!;
      if (vin.coinbase !== undefined) {
        assert.equal(input.prevTxid, '0'.repeat(64));
        assert.equal(input.prevVout, 0xffffffff);
        assert.equal(toHex(input.scriptSig), vin.coinbase);
      } else {
        assert.equal(input.prevTxid, vin.prev_txid);
        assert.equal(input.prevVout, vin.prev_vout);
        assert.equal(toHex(input.scriptSig), vin.scriptSig);
      }
      assert.equal(input.sequence, vin.sequence);
      assert.deepEqual(input.witness.map(toHex), vin.witness ?? []);
    }
    for (const [i, vout] of (e.vout ?? []).entries()) {
      const output = tx.outputs[i]!;
      assert.equal(typeof output.value, 'bigint');
      assert.equal(output.value, BigInt(vout.value_sat));
      assert.equal(toHex(output.script), vout.script_hex);
    }
    // Round trip, byte for byte, in the form it was parsed from (HogEx 0x08, mempool 0x09 included).
    assert.equal(toHex(serializeTransaction(tx)), data.hex);
    // The stripped form re-parses to the same txid (MWEB-only txs excepted: their id is not a sha256d).
    if (!(tx.hasMwebBody && tx.inputs.length === 0)) {
      const stripped = parseTransaction(serializeTransaction(tx, { witness: false, mweb: false }));
      assert.equal(stripped.txid, tx.txid);
      // Weight as Core/Litecoin Core define it: 3 x stripped size + size of the NO_MWEB serialization
      // (plus the MWEB part's own weight for a mempool-form tx, checked against litecoind in the parity test).
      assert.equal(tx.weight - mwebExtra, stripped.size * 3 + serializeTransaction(tx, { mweb: false }).length);
    }
  });
}

function weightWithoutMweb(tx: Transaction): number {
  if (tx.inputs.length === 0 && tx.outputs.length === 0) return 0;
  const stripped = serializeTransaction(tx, { witness: false, mweb: false }).length;
  return stripped * 3 + serializeTransaction(tx, { mweb: false }).length;
}

void test('the MWEB mempool form of a peg-in has the same ids as its block form, and weighs 164 more (its peg-in kernel)', () => {
  const load = (name: string): TxFixture => fixtures.find((f) => f.file === name)!.data;
  const mempool = parseTransaction(Buffer.from(load('LTC-mweb-pegin-mempool-form.json').hex, 'hex'), { mweb: true });
  const block = parseTransaction(Buffer.from(load('LTC-mweb-pegin-in-block-form.json').hex, 'hex'), { mweb: true });
  assert.equal(mempool.hasMwebBody, true);
  assert.equal(mempool.txid, block.txid);
  assert.equal(mempool.wtxid, block.wtxid);
  assert.equal(mempool.weight, block.weight + 164);
  assert.equal(mempool.vsize, Math.ceil((block.weight + 164) / 4));
  assert.equal(toHex(serializeTransaction(mempool, { mweb: false })), toHex(block.raw));
});

void test('MWEB flags are rejected unless the chain has MWEB', () => {
  const hogex = fixtures.find((f) => f.file === 'LTC-mweb-hogex-2383209.json')!.data;
  assert.throws(() => parseTransaction(Buffer.from(hogex.hex, 'hex')), ParseError);
});

void test('every truncation of every fixture tx throws ParseError', () => {
  for (const { file, data } of fixtures) {
    const bytes = Buffer.from(data.hex, 'hex');
    const options = { mweb: isLitecoin(data.network) };
    for (let n = 0; n < bytes.length; n++) {
      assert.throws(() => parseTransaction(bytes.subarray(0, n), options), ParseError, `${file} cut at ${n}`);
    }
    const extended = Buffer.concat([bytes, Buffer.of(0)]);
    assert.throws(() => parseTransaction(extended, options), ParseError, `${file} with a trailing byte`);
  }
});

void test('non-canonical CompactSize and superfluous witness records are rejected', () => {
  const legacy = Buffer.from(fixtures.find((f) => f.file === 'BTC-coinbase-legacy.json')!.data.hex, 'hex');
  // vin count 1 re-encoded as fd 01 00
  const nonCanonical = Buffer.concat([legacy.subarray(0, 4), Buffer.of(0xfd, 0x01, 0x00), legacy.subarray(5)]);
  assert.throws(() => parseTransaction(nonCanonical), ParseError);
  // marker/flag 00 01 but an empty witness stack for the single input
  const tx = parseTransaction(legacy);
  const body = legacy.subarray(4, legacy.length - 4);
  const superfluous = Buffer.concat([legacy.subarray(0, 4), Buffer.of(0, 1), body, Buffer.of(0), legacy.subarray(-4)]);
  assert.equal(tx.inputs.length, 1);
  assert.throws(() => parseTransaction(superfluous), ParseError);
});
