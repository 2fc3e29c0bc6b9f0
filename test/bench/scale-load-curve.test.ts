/**
 * The scale benchmark's reading of the service's log (bench/scale/progress-log.ts) and its per-million figures
 * (load-curve.ts): heights over time become transaction counts, a "building indexes" phase is taken out of the
 * timeline and spread over every million in proportion to its transactions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadCurve } from '../../bench/scale/load-curve.js';
import { parseLine, readSyncLog } from '../../bench/scale/progress-log.js';

const line = (at: number, text: string): { at: number; text: string } => ({ at, text: `2026-11-23T10:00:00.000Z ${text}` });

describe('scale bench log reading', () => {
  it('parses fields whose values hold spaces and names the phase', () => {
    const parsed = parseLine(line(5, 'info sync progress network=BTCTEST phase=building indexes height=12 etaSeconds=30'))!;
    assert.equal(parsed.message, 'sync progress');
    assert.deepEqual(parsed.fields, { network: 'BTCTEST', phase: 'building indexes', height: '12', etaSeconds: '30' });
    assert.equal(parsed.phase, 'building indexes');
    assert.equal(parseLine(line(5, 'info catching up with the node network=BTCTEST'))!.phase, 'catching up');
    assert.equal(parseLine(line(5, 'info sync progress network=BTCTEST height=3'))!.phase, null);
    assert.equal(parseLine({ at: 0, text: 'not a log line' }), null);
  });

  it('collects heights, phase spans and the summary up to a moment', () => {
    const log = readSyncLog(
      [
        line(1000, 'info sync progress network=BTCTEST phase=loading height=10 tip=40'),
        line(2000, 'info sync progress network=BTCTEST phase=loading height=30 tip=40'),
        line(3000, 'info sync progress network=BTCTEST phase=building indexes height=30 tip=40'),
        line(7000, 'info sync progress network=BTCTEST phase=catching up height=40 tip=40'),
        line(7500, 'error sync failed; retrying network=BTCTEST'),
        line(8000, 'info sync finished network=BTCTEST height=40 seconds=8'),
        line(9000, 'info sync progress network=BTCTEST height=41 tip=41'),
      ],
      8500,
    );
    assert.deepEqual(log.samples.map((s) => s.height), [10, 30, 30, 40, 40]);
    assert.deepEqual(log.phases, [
      { phase: 'loading', from: 1000, to: 3000 },
      { phase: 'building indexes', from: 3000, to: 7000 },
      { phase: 'catching up', from: 7000, to: 8000 },
    ]);
    assert.equal(log.finished?.['seconds'], '8');
    assert.equal(log.errors.length, 1);
  });

  it('spreads the index build over every million by its transactions', () => {
    // 100k txs per height: 1M at height 9, 2M at height 19, 2.5M at height 24.
    const txsThrough = (h: number): number => (h + 1) * 100_000;
    const samples = [
      { at: 10_000, height: 9 },
      { at: 30_000, height: 19 },
      { at: 70_000, height: 24 },
    ];
    const phases = [{ phase: 'building indexes', from: 30_000, to: 55_000 }];
    const curve = loadCurve(samples, phases, txsThrough, 80_000, 2_500_000);
    assert.equal(curve.buildSeconds, 25);
    assert.equal(curve.totalSeconds, 80);
    assert.deepEqual(curve.perMillion.map((m) => m.txs), [1_000_000, 1_000_000, 500_000]);
    assert.deepEqual(curve.perMillion.map((m) => Math.round(m.loadSeconds * 1000) / 1000), [10, 20, 25]);
    // A remainder under half a million joins the last million.
    const cut = loadCurve(samples.slice(0, 2), [], txsThrough, 31_000, 2_100_000);
    assert.deepEqual(cut.perMillion.map((m) => m.txs), [1_000_000, 1_100_000]);
    assert.deepEqual(curve.perMillion.map((m) => m.buildSeconds), [10, 10, 5]);
    assert.equal(Math.round(curve.perMillion[0]!.txPerSecond), 50_000);
    // Every second of the run is in exactly one million's figure.
    const accounted = curve.perMillion.reduce((s, m) => s + m.loadSeconds + m.buildSeconds, 0);
    assert.equal(Math.round(accounted * 1000) / 1000, 80);
  });
});
