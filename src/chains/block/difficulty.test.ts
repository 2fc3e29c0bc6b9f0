import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Transaction } from '../../core/domain/chain-types.js';
import { coinbaseHeight, printableRuns } from './coinbase.js';
import { difficultyFromBits, targetFromBits, workFromBits } from './difficulty.js';

void test('difficulty-1 target and its work (Core: genesis chainwork 0x100010001)', () => {
  assert.equal(targetFromBits(0x1d00ffff), 0xffffn << 208n);
  assert.equal(workFromBits(0x1d00ffff), 0x100010001n);
  assert.equal(difficultyFromBits(0x1d00ffff), 1);
  // LTC 2383209: Litecoin Core RPC reports 20273913.01371884
  assert.ok(Math.abs(difficultyFromBits(0x1a00d3d8) - 20273913.013718836) < 1e-6);
});

void test('SetCompact edge cases: small exponents, negative and overflowing targets', () => {
  assert.equal(targetFromBits(0x01003456), 0x00n);
  assert.equal(targetFromBits(0x02123456), 0x1234n);
  assert.equal(targetFromBits(0x04123456), 0x12345600n);
  assert.equal(targetFromBits(0x04923456), 0n); // sign bit set
  assert.equal(targetFromBits(0xff123456), 0n); // overflow
  assert.equal(workFromBits(0x04923456), 0n);
  assert.equal(workFromBits(0), 0n);
});

function coinbaseWith(scriptSig: number[]): Transaction {
  return {
    txid: '', wtxid: '', version: 1, locktime: 0, size: 0, weight: 0, vsize: 0,
    hasWitness: false, isCoinbase: true, isHogEx: false, hasMwebBody: false, raw: new Uint8Array(),
    inputs: [{ prevTxid: '0'.repeat(64), prevVout: 0xffffffff, scriptSig: Uint8Array.from(scriptSig), sequence: 0, witness: [] }],
    outputs: [],
  };
}

void test('coinbaseHeight reads BIP34 pushes, OP_N and rejects negatives', () => {
  assert.equal(coinbaseHeight(coinbaseWith([0x03, 0x05, 0x46, 0x08])), 542213);
  assert.equal(coinbaseHeight(coinbaseWith([0x51])), 1);
  assert.equal(coinbaseHeight(coinbaseWith([0x60])), 16);
  assert.equal(coinbaseHeight(coinbaseWith([0x00])), 0);
  assert.equal(coinbaseHeight(coinbaseWith([0x01, 0x81])), null);
  assert.equal(coinbaseHeight(coinbaseWith([0x03, 0x01])), null);
  assert.equal(coinbaseHeight(coinbaseWith([])), null);
});

void test('printableRuns keeps runs of printable ASCII of the minimum length', () => {
  const tag = [...Buffer.from('/slush/')];
  assert.deepEqual(printableRuns(Uint8Array.from([0x03, 0x05, 0x46, 0x08, ...tag, 0x00, 0x41, 0x42])), ['F', '/slush/', 'AB']);
  assert.deepEqual(printableRuns(Uint8Array.from([0x03, 0x05, 0x46, 0x08, ...tag, 0x00, 0x41, 0x42]), 4), ['/slush/']);
});
