import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordingLogger as recorder } from '../../test/helpers/recording-logger.js';
import { SyncProgress, type ProgressSink } from './sync-progress.js';

function clock(startMs: number): { now: () => number; advance(ms: number): void } {
  let t = startMs;
  return { now: () => t, advance: (ms) => (t += ms) };
}

test('without a TTY: a log line every logEveryMs and at the tip, with rates and ETA from the clock', () => {
  const { logger, lines } = recorder();
  const c = clock(0);
  const progress = new SyncProgress('LTCTEST', logger, null, { logEveryMs: 10_000, now: c.now });
  c.advance(2_000);
  progress.update(100, 1000, 100, 5000); // first update always logs (no line yet)
  c.advance(2_000);
  progress.update(200, 1000, 100, 5000); // 2 s after the last line: quiet
  c.advance(8_000);
  progress.update(600, 1000, 400, 20_000); // 10 s after the last line
  c.advance(1_000);
  progress.update(1000, 1000, 400, 20_000); // the tip: always
  assert.deepEqual(lines.map((l) => l.fields?.['height']), [100, 600, 1000]);
  assert.deepEqual(lines[0]!.fields, { network: 'LTCTEST', height: 100, tip: 1000, blocksPerSecond: 50, txPerSecond: 2500, etaSeconds: 18 });
  assert.deepEqual(lines[1]!.fields, { network: 'LTCTEST', height: 600, tip: 1000, blocksPerSecond: 50, txPerSecond: 2500, etaSeconds: 8 });
  assert.equal(lines[2]!.fields?.['etaSeconds'], 0);
});

test('on a TTY: one redrawn bar (no log lines), ended with a newline by finish', () => {
  const { logger, lines } = recorder();
  const written: string[] = [];
  const sink: ProgressSink = { isTTY: true, write: (text) => void written.push(text) };
  const c = clock(0);
  const progress = new SyncProgress('BTC', logger, sink, { logEveryMs: 10_000, now: c.now });
  c.advance(4_000);
  progress.update(300, 1200, 300, 8_000);
  assert.equal(written.length, 1);
  assert.match(written[0]!, /^\rBTC \[#{8}\.{22}\] 300\/1200 {2}75 blk\/s {2}2000 tx\/s {2}ETA 0m12s/);
  c.advance(12_000);
  progress.update(1200, 1200, 900, 24_000);
  assert.match(written[1]!, /\[#{30}\] 1200\/1200 .* ETA 0m00s/);
  progress.finish(1200);
  assert.equal(written[2], '\n');
  assert.deepEqual(lines.map((l) => l.message), ['sync finished']);
});

test('finish logs where the time went: waiting for batches and writing them', () => {
  const { logger, lines } = recorder();
  const c = clock(0);
  const progress = new SyncProgress('DOGE', logger, null, { logEveryMs: 60_000, now: c.now });
  progress.waited(1_500);
  c.advance(1_500);
  progress.wrote(3_250.4);
  c.advance(3_250);
  progress.update(431, 431, 431, 100_431);
  progress.waited(10);
  progress.wrote(240);
  c.advance(250);
  progress.finish(431);
  assert.deepEqual(lines.at(-1), {
    level: 'info',
    message: 'sync finished',
    fields: { network: 'DOGE', height: 431, blocks: 431, txs: 100_431, seconds: 5, txPerSecond: 20_086, waitingSeconds: 1.51, writingSeconds: 3.49 },
  });
});

test('finish with nothing written logs no summary', () => {
  const { logger, lines } = recorder();
  const progress = new SyncProgress('LTC', logger, null);
  progress.waited(20);
  progress.finish(null);
  assert.deepEqual(lines, []);
});

test('a phase is its own field (network stays the bare acronym) and prefixes the bar', () => {
  const { logger, lines } = recorder();
  const progress = new SyncProgress('LTC', logger, null, { phase: 'loading' });
  progress.update(10, 10, 11, 11);
  progress.finish(10);
  assert.deepEqual(lines.map((l) => [l.message, l.fields?.['network'], l.fields?.['phase']]), [
    ['sync progress', 'LTC', 'loading'],
    ['sync finished', 'LTC', 'loading'],
  ]);
  const written: string[] = [];
  new SyncProgress('BTC', logger, { isTTY: true, write: (text) => void written.push(text) }, { phase: 'loading' }).update(1, 2, 1, 1);
  assert.match(written[0]!, /^\rBTC loading \[/);
});
