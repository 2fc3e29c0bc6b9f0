import assert from 'node:assert/strict';
import { it } from 'node:test';
import { silentLogger, type MempoolSample, type MempoolSampleStore, type NetworkId } from '../../core/index.js';
import { MempoolSampler } from './mempool-sampler.js';

function recordingStore(fail = false): MempoolSampleStore & { sampled: number[]; pruned: number[] } {
  const sampled: number[] = [];
  const pruned: number[] = [];
  return {
    sampled,
    pruned,
    async sample(_network: NetworkId, time: number): Promise<MempoolSample | null> {
      if (fail) throw new Error('disk full');
      sampled.push(time);
      return { time, txCount: 0, bytes: 0, vbytes: 0, fees: 0n };
    },
    async read() {
      return [];
    },
    async prune(_network: NetworkId, before: number) {
      pruned.push(before);
      return 0;
    },
  };
}

it('samples once per interval, however many passes run in it; prunes at most every 10 minutes', async () => {
  const store = recordingStore();
  const start = 60 * 16_667;
  let now = start;
  const sampler = new MempoolSampler('LTC', { store, everySeconds: 60, keepSeconds: 72 * 3600 }, silentLogger, () => now);
  for (let t = 0; t < 30 * 60; t += 5) {
    now = start + t;
    await sampler.maybeSample();
  }
  assert.equal(store.sampled.length, 30, 'one per minute over 30 minutes of 5-second passes');
  assert.ok(store.sampled.every((t, i) => i === 0 || Math.floor(t / 60) === Math.floor(store.sampled[i - 1]! / 60) + 1));
  assert.deepEqual(store.pruned, [0, 600, 1_200].map((t) => start + t - 72 * 3600));
});

it('takes none with an interval of 0; a failing store is logged, not thrown', async () => {
  const off = recordingStore();
  await new MempoolSampler('LTC', { store: off, everySeconds: 0, keepSeconds: 3600 }, silentLogger, () => 1).maybeSample();
  assert.deepEqual(off.sampled, []);
  const warnings: string[] = [];
  const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
  await new MempoolSampler('LTC', { store: recordingStore(true), everySeconds: 60, keepSeconds: 3600 }, logger, () => 60).maybeSample();
  assert.deepEqual(warnings, ['mempool sample failed; the next pass tries again']);
});
