import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { Transaction } from '../../core/domain/chain-types.js';
import { ParseError } from '../../core/domain/errors.js';
import { toHex } from '../hash.js';
import { parseBlock } from '../block/block-parser.js';
import { parseTransaction } from './tx-parser.js';
import { serializeTransaction } from './tx-serializer.js';

const FIXTURES = new URL('../../../../shared/fixtures/', import.meta.url);

const hash32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => toHex(b));
const script = fc.uint8Array({ maxLength: 120 });
const u32 = fc.integer({ min: 0, max: 0xffffffff });

function txArbitrary(segwit: boolean): fc.Arbitrary<Transaction> {
  const input = fc.record({
    prevTxid: hash32,
    prevVout: u32,
    scriptSig: script,
    sequence: u32,
    witness: segwit ? fc.array(fc.uint8Array({ maxLength: 80 }), { maxLength: 4 }) : fc.constant([]),
  });
  const output = fc.record({ value: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), script });
  return fc
    .record({
      version: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
      locktime: u32,
      inputs: fc.array(input, { minLength: 1, maxLength: 5 }),
      outputs: fc.array(output, { maxLength: 5 }),
    })
    .map((t) => {
      const hasWitness = t.inputs.some((i) => i.witness.length > 0);
      // Only the fields the serializer reads matter; ids and sizes come from the re-parse.
      return { ...t, hasWitness, isHogEx: false, hasMwebBody: false, txid: '', wtxid: '', size: 0, weight: 0, vsize: 0, isCoinbase: false, raw: new Uint8Array() };
    });
}

function assertRoundTrip(tx: Transaction): void {
  const bytes = serializeTransaction(tx);
  const parsed = parseTransaction(bytes);
  assert.equal(parsed.version, tx.version);
  assert.equal(parsed.locktime, tx.locktime);
  assert.deepEqual(
    parsed.inputs.map((i) => ({ ...i, scriptSig: toHex(i.scriptSig), witness: i.witness.map(toHex) })),
    tx.inputs.map((i) => ({ ...i, scriptSig: toHex(i.scriptSig), witness: i.witness.map(toHex) })),
  );
  assert.deepEqual(
    parsed.outputs.map((o) => [o.value, toHex(o.script)]),
    tx.outputs.map((o) => [o.value, toHex(o.script)]),
  );
  assert.equal(toHex(serializeTransaction(parsed)), toHex(bytes));
  assert.equal(parsed.size, bytes.length);
  const stripped = serializeTransaction(parsed, { witness: false });
  assert.equal(parsed.weight, stripped.length * 3 + bytes.length);
  if (!parsed.hasWitness) assert.equal(parsed.wtxid, parsed.txid);
}

void test('generated legacy transactions round-trip', () => {
  fc.assert(fc.property(txArbitrary(false), assertRoundTrip), { numRuns: 300 });
});

void test('generated segwit transactions round-trip', () => {
  fc.assert(fc.property(txArbitrary(true), assertRoundTrip), { numRuns: 300 });
});

void test('every tx inside every fixture block round-trips', () => {
  const dir = new URL('blocks/', FIXTURES);
  for (const file of readdirSync(dir)) {
    const data = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as { network: string; hex: string };
    const coin = data.network.replace('TEST', '');
    const block = parseBlock(Buffer.from(data.hex, 'hex'), { segwit: coin !== 'DOGE', mweb: coin === 'LTC', auxpow: coin === 'DOGE' });
    for (const tx of block.txs) {
      assert.equal(toHex(serializeTransaction(tx)), toHex(tx.raw), `${file} ${tx.txid}`);
      const again = parseTransaction(serializeTransaction(tx), { mweb: coin === 'LTC' });
      assert.equal(again.txid, tx.txid);
      assert.equal(again.wtxid, tx.wtxid);
    }
  }
});

void test('random bytes only ever throw ParseError (or parse), never hang', () => {
  const features = { segwit: true, mweb: true, auxpow: true };
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 400 }), fc.boolean(), (bytes, mweb) => {
      for (const parse of [() => parseTransaction(bytes, { mweb }), () => parseBlock(bytes, features)]) {
        try {
          parse();
        } catch (err) {
          assert.ok(err instanceof ParseError, String(err));
        }
      }
    }),
    { numRuns: 2000 },
  );
});

void test('mutated fixture txs only ever throw ParseError', () => {
  const dir = new URL('txs/', FIXTURES);
  const txs = readdirSync(dir).map((f) => Buffer.from((JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { hex: string }).hex, 'hex'));
  fc.assert(
    fc.property(fc.integer({ min: 0, max: txs.length - 1 }), fc.nat(), fc.integer({ min: 0, max: 255 }), (k, at, value) => {
      const bytes = Buffer.from(txs[k]!);
      bytes[at % bytes.length] = value;
      try {
        const tx = parseTransaction(bytes, { mweb: true });
        assert.equal(toHex(serializeTransaction(tx)), toHex(bytes));
      } catch (err) {
        assert.ok(err instanceof ParseError, String(err));
      }
    }),
    { numRuns: 3000 },
  );
});
