import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AnswerCache } from './answer-cache.js';
import { scripthashOf } from './status-subscriptions.js';

const script = (n: number): Uint8Array => Buffer.from([0x00, 0x14, ...Buffer.alloc(20, n)]);
const sh = (n: number): string => scripthashOf(script(n));
const NET = 'BTCTEST' as const;

describe('AnswerCache', () => {
  it('keeps an answer per kind and scripthash, and not one read while a change arrived', () => {
    const cache = new AnswerCache(1 << 20);
    assert.equal(cache.get('history', sh(1)), undefined);
    cache.put('history', sh(1), '[]', false, cache.generation);
    assert.equal(cache.get('history', sh(1)), '[]');
    assert.equal(cache.get('balance', sh(1)), undefined, 'another kind');
    const before = cache.generation;
    cache.onChange({ kind: 'scripts', network: NET, scripts: [script(9)] });
    cache.put('balance', sh(1), '{"confirmed":1,"unconfirmed":0}', false, before);
    assert.equal(cache.get('balance', sh(1)), undefined, 'its read may predate the change');
    assert.deepEqual([cache.hits, cache.misses], [1, 3]);
  });

  it('drops what each change may have moved: touched scripts; pending answers at a tx leaving or a block; all at a reorg', () => {
    const cache = new AnswerCache(1 << 20);
    const fill = (): void => {
      for (const n of [1, 2, 3]) for (const kind of ['balance', 'history', 'unspent'] as const) cache.put(kind, sh(n), `${kind}${n}`, n === 3, cache.generation);
    };
    const kept = (): number[] => [1, 2, 3].filter((n) => cache.get('unspent', sh(n)) !== undefined);
    fill();
    cache.onChange({ kind: 'scripts', network: NET, scripts: [script(1)] });
    assert.deepEqual(kept(), [2, 3]);
    assert.equal(cache.get('balance', sh(1)), undefined, 'every kind of it');
    fill();
    cache.onChange({ kind: 'tx-gone', network: NET, txid: 'ab'.repeat(32) });
    assert.deepEqual(kept(), [1, 2], 'the pending one');
    fill();
    cache.onChange({ kind: 'block', network: NET, height: 5, hash: 'cd'.repeat(32) });
    assert.deepEqual(kept(), [1, 2]);
    fill();
    cache.onChange({ kind: 'reorg', network: NET, height: 4 });
    assert.deepEqual(kept(), []);
    assert.equal(cache.bytes, 0);
  });

  it('holds at most its bound, the least recently used dropped first; an answer past a sixteenth of it is not kept', () => {
    const cache = new AnswerCache(64 * 1024);
    const text = 'x'.repeat(1000);
    for (let n = 0; n < 200; n++) {
      cache.put('history', sh(n), text, false, cache.generation);
      assert.ok(cache.bytes <= 64 * 1024, `${cache.bytes} bytes after ${n + 1}`);
      // The first stays in use: never the one dropped.
      assert.equal(cache.get('history', sh(0)), text);
    }
    assert.ok(cache.size > 40 && cache.size < 64, `${cache.size} answers of ~1.25 kB in 64 kB`);
    assert.equal(cache.get('history', sh(1)), undefined, 'an old one is gone');
    cache.put('history', sh(500), 'y'.repeat(64 * 1024 / 16 + 1), false, cache.generation);
    assert.equal(cache.get('history', sh(500)), undefined);
    // Replacing an answer counts its new length only.
    const bytes = cache.bytes;
    cache.put('history', sh(0), 'z', false, cache.generation);
    assert.equal(cache.bytes, bytes - 999);
    const off = new AnswerCache(0);
    off.put('balance', sh(1), '{}', false, off.generation);
    assert.deepEqual([off.size, off.bytes], [0, 0]);
  });
});
