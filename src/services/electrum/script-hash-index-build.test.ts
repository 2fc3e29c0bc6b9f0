import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WriterStandbyError } from '../../core/domain/errors.js';
import { silentLogger } from '../../core/infrastructure/logger.js';
import type { ScriptHashIndexState } from '../../core/store/script-hash-reads.js';
import { ScriptHashIndexBuild } from './script-hash-index-build.js';

function fakeStore(steps: number, script: { bulkFor?: number; standbyFor?: number } = {}) {
  const calls: number[] = [];
  let bulk = script.bulkFor ?? 0;
  let standby = script.standbyFor ?? 0;
  let done = 0;
  return {
    calls,
    store: {
      id: 'LTC' as const,
      async getBulkLoad() {
        return bulk-- > 0 ? { step: 0, startedAt: 0 } : null;
      },
      async buildScriptHashIndex(limit: number): Promise<ScriptHashIndexState> {
        if (standby-- > 0) throw new WriterStandbyError('LTC');
        calls.push(limit);
        done++;
        return done >= steps ? { ready: true, progress: 1 } : { ready: false, progress: done / steps };
      },
    },
  };
}

describe('the background scripthash index build', () => {
  it('steps until the index is ready, after a load ends and once this process writes', async () => {
    const a = fakeStore(4, { bulkFor: 2, standbyFor: 1 });
    const b = fakeStore(1);
    const build = new ScriptHashIndexBuild([a.store, b.store], silentLogger, { stepScripts: 100, pauseMs: 1, retryMs: 1 });
    build.start();
    for (let i = 0; i < 1000 && a.calls.length < 4; i++) await new Promise((r) => setTimeout(r, 2));
    await build.stop();
    assert.deepEqual(a.calls, [100, 100, 100, 100]);
    assert.deepEqual(b.calls, [100]);
  });

  it('stops at once, mid-wait', async () => {
    const a = fakeStore(1_000_000);
    const build = new ScriptHashIndexBuild([a.store], silentLogger, { pauseMs: 60_000 });
    build.start();
    while (a.calls.length === 0) await new Promise((r) => setTimeout(r, 1));
    const before = Date.now();
    await build.stop();
    assert.ok(Date.now() - before < 5_000);
    assert.equal(a.calls.length, 1);
  });
});
