/** A runtime's parts start in the declared order and stop in reverse: what began, once, even when a stop fails. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RuntimeParts, type RuntimePart } from './runtime-parts.js';

function recording(names: readonly string[], failStart: string | null = null, failStop: string | null = null): { parts: RuntimePart[]; log: string[] } {
  const log: string[] = [];
  const parts = names.map((name): RuntimePart => ({
    name,
    start: async () => {
      await Promise.resolve();
      log.push(`start ${name}`);
      if (name === failStart) throw new Error(`${name} failed`);
    },
    stop: () => {
      log.push(`stop ${name}`);
      if (name === failStop) throw new Error(`${name} would not stop`);
    },
  }));
  return { parts, log };
}

describe('RuntimeParts', () => {
  it('starts in order and stops in reverse, once', async () => {
    const { parts, log } = recording(['store', 'http', 'indexer']);
    const runtime = new RuntimeParts(parts);
    await runtime.start();
    await Promise.all([runtime.stop(), runtime.stop()]);
    await runtime.stop();
    assert.deepEqual(log, ['start store', 'start http', 'start indexer', 'stop indexer', 'stop http', 'stop store']);
  });

  it('a failed start stops what began (the failing part too), in reverse, and rejects with the failure', async () => {
    const { parts, log } = recording(['store', 'http', 'node checks', 'indexer'], 'http');
    const runtime = new RuntimeParts(parts);
    await assert.rejects(runtime.start(), /http failed/);
    assert.deepEqual(log, ['start store', 'start http', 'stop http', 'stop store']);
    await runtime.stop();
    assert.equal(log.length, 4, 'already stopped');
  });

  it('every part stops even when one fails to; the first failure is rethrown, naming the part', async () => {
    const { parts, log } = recording(['store', 'http', 'indexer'], null, 'http');
    const runtime = new RuntimeParts(parts);
    await runtime.start();
    await assert.rejects(runtime.stop(), /stopping http: http would not stop/);
    assert.deepEqual(log.slice(3), ['stop indexer', 'stop http', 'stop store']);
  });

  it('a stop during the start lets the part starting finish, starts nothing after it, and stops what began', async () => {
    let release: () => void = () => undefined;
    const log: string[] = [];
    const runtime = new RuntimeParts([
      { name: 'store', start: () => void log.push('start store'), stop: () => void log.push('stop store') },
      { name: 'node checks', start: () => new Promise<void>((resolve) => (release = resolve)) },
      { name: 'indexer', start: () => void log.push('start indexer'), stop: () => void log.push('stop indexer') },
    ]);
    const started = runtime.start();
    await new Promise((resolve) => setImmediate(resolve));
    await runtime.stop();
    release();
    await started;
    assert.deepEqual(log, ['start store', 'stop store']);
  });
});
