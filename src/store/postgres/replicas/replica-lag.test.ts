import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LagClock, parseLsn } from './replica-lag.js';

describe('parseLsn', () => {
  it('reads pg_lsn text as a byte position, and refuses anything else', () => {
    assert.equal(parseLsn('0/16B3748'), 0x16b3748n);
    assert.equal(parseLsn('1/0'), 1n << 32n);
    assert.equal(parseLsn('FFFFFFFF/FFFFFFFF'), (1n << 64n) - 1n);
    assert.throws(() => parseLsn('16B3748'), /not a WAL position/);
  });
});

describe('LagClock', () => {
  it('0 for a replica at the newest position; else the time since the first position it misses was seen', () => {
    const clock = new LagClock(10_000);
    assert.equal(clock.lagMs(0n, 0), 0, 'nothing known yet');
    clock.observe(100n, 1_000);
    clock.observe(200n, 2_000);
    clock.observe(300n, 3_000);
    assert.equal(clock.lagMs(300n, 3_500), 0);
    assert.equal(clock.lagMs(350n, 3_500), 0, 'ahead of the last sample');
    assert.equal(clock.lagMs(250n, 3_500), 500, 'misses 300, seen at 3,000');
    assert.equal(clock.lagMs(150n, 3_500), 1_500, 'misses 200, seen at 2,000');
    assert.equal(clock.lagMs(50n, 3_500), 2_500);
  });

  it('an idle primary (the same position again) makes no lag; the first change after it does', () => {
    const clock = new LagClock(10_000);
    clock.observe(100n, 0);
    for (let t = 250; t <= 60_000; t += 250) clock.observe(100n, t);
    assert.equal(clock.lagMs(100n, 60_000), 0);
    clock.observe(101n, 60_250);
    assert.equal(clock.lagMs(100n, 60_400), 150);
  });

  it('forgets old positions without making a stuck replica look fresh', () => {
    const clock = new LagClock(2_000);
    clock.observe(100n, 0);
    clock.observe(200n, 60_000); // after a long idle time
    assert.equal(clock.lagMs(50n, 60_100), 60_100, 'stuck since before the idle time: its lag stays the real one');
    for (let t = 60_250; t <= 70_000; t += 250) clock.observe(BigInt(t), t);
    assert.ok(clock.lagMs(150n, 70_000) > 2_000, 'still beyond the bound after pruning');
    assert.equal(clock.lagMs(BigInt(70_000), 70_000), 0);
    assert.equal(clock.lagMs(BigInt(69_000), 70_000), 750);
  });

  it('the primary down: the freshest replica is current even if the primary wrote more before it went; others lag', () => {
    const clock = new LagClock(10_000);
    clock.observe(100n, 0);
    clock.observe(200n, 1_000); // the primary's last position: no replica received it
    assert.equal(clock.lagMs(150n, 5_000), 4_000, 'with the primary up (no ceiling) the replica misses 200');
    assert.equal(clock.lagMs(150n, 5_000, 150n), 0, 'primary down, 150 is the freshest reachable: current');
    assert.equal(clock.lagMs(90n, 5_000, 150n), 5_000, 'a replica behind the freshest still lags from what it misses');
  });
});
