import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MempoolPackage } from '../../core/sources/mempool-package-source.js';
import { effectiveFeeRate } from './effective-fee-rate.js';

const pkg = (p: Partial<MempoolPackage>): MempoolPackage => ({
  txid: 'a', fee: 100n, vsize: 100, ancestorCount: 1, ancestorSize: 100, ancestorFee: 100n, descendantCount: 1, descendantSize: 100, descendantFee: 100n, ...p,
});

test('alone: the effective rate is its own', () => {
  assert.deepEqual(effectiveFeeRate(pkg({})), { own: 1, withAncestors: 1, withDescendants: 1, effective: 1, ancestors: 0, descendants: 0 });
});

test('a parent whose child pays for it (CPFP) is mined at the package rate', () => {
  const parent = effectiveFeeRate(pkg({ descendantCount: 2, descendantSize: 250, descendantFee: 3_100n }));
  assert.equal(parent.effective, 12.4);
  assert.equal(parent.descendants, 1);
});

test('a child of a cheap parent is mined at the package rate, below its own', () => {
  const child = effectiveFeeRate(pkg({ fee: 3_000n, vsize: 150, ancestorCount: 2, ancestorSize: 250, ancestorFee: 3_100n }));
  assert.deepEqual([child.own, child.effective, child.ancestors], [20, 12.4, 1]);
});
