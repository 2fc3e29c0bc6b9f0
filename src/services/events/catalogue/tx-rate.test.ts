import assert from 'node:assert/strict';
import { it } from 'node:test';
import { TxRate } from './tx-rate.js';

it('counts transactions per minute over a sliding window', () => {
  const rate = new TxRate(60);
  const t0 = 1_000_000_000;
  for (let i = 0; i < 30; i++) rate.record(t0 + i * 1000); // one per second for 30 s
  assert.equal(rate.perMinute(t0 + 29_500), 30);
  assert.equal(rate.perMinute(t0 + 60_500), 29, 'the first second left the window');
  assert.equal(rate.perMinute(t0 + 200_000), 0);
  const short = new TxRate(10);
  for (let i = 0; i < 5; i++) short.record(t0);
  assert.equal(short.perMinute(t0), 30, 'scaled to a minute');
});
