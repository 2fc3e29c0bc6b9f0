import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ScriptCache, withDelta, type CachedScript } from './script-cache.js';

function entry(id: number, received = 0n): CachedScript {
  return { id, key: `script-${id}`, received, sent: 0n, txCount: 0, receivedCount: 0, sentCount: 0 };
}

test('staged rows are visible only after commit, and abort drops them', () => {
  const cache = new ScriptCache(100);
  cache.stage(entry(1, 5n));
  assert.equal(cache.byScript('script-1'), undefined);
  cache.abort();
  cache.commit();
  assert.equal(cache.byScript('script-1'), undefined);
  cache.stage(entry(1, 5n));
  cache.stage(entry(1, 7n));
  cache.commit();
  assert.equal(cache.byScript('script-1')?.received, 7n);
  assert.equal(cache.byScriptId(1)?.received, 7n);
});

test('past its bound the cache drops its oldest rows and stops claiming completeness', () => {
  const cache = new ScriptCache(10);
  cache.setComplete(true);
  for (let id = 1; id <= 10; id++) cache.stage(entry(id));
  cache.commit();
  assert.equal(cache.size, 10);
  assert.equal(cache.complete, true);
  cache.stage(entry(11));
  cache.commit();
  assert.equal(cache.size, 8);
  assert.equal(cache.complete, false);
  assert.equal(cache.byScript('script-1'), undefined);
  assert.equal(cache.byScriptId(1), undefined);
  assert.equal(cache.byScriptId(11)?.key, 'script-11');
});

test('clear forgets rows and completeness; forgetCompleteness keeps rows', () => {
  const cache = new ScriptCache(10);
  cache.setComplete(true);
  cache.stage(entry(1));
  cache.commit();
  cache.forgetCompleteness();
  assert.equal(cache.complete, false);
  assert.ok(cache.byScript('script-1'));
  cache.clear();
  assert.equal(cache.complete, null);
  assert.equal(cache.size, 0);
});

test('withDelta adds exactly past 2^64', () => {
  const big = (1n << 64n) + 3n;
  const next = withDelta(entry(1, big), { scriptId: 1, received: big, sent: 1n, txCount: 2, receivedCount: 1, sentCount: 1 });
  assert.equal(next.received, 2n * big);
  assert.equal(next.sent, 1n);
  assert.deepEqual([next.txCount, next.receivedCount, next.sentCount], [2, 1, 1]);
});
