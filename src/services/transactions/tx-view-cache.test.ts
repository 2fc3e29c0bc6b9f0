import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TX_VIEW_BYTES_MAX, TX_VIEWS_MAX, TxViewCache } from './tx-view-cache.js';

describe('tx view cache', () => {
  it('holds at most TX_VIEWS_MAX views and TX_VIEW_BYTES_MAX bytes, dropping the oldest first', () => {
    const cache = new TxViewCache<number>();
    for (let i = 0; i < TX_VIEWS_MAX + 100; i++) cache.set(`t${i}`, 'tip', i, 250);
    assert.deepEqual(cache.size, { views: TX_VIEWS_MAX, bytes: TX_VIEWS_MAX * 250 });
    assert.equal(cache.get('t0'), undefined);
    assert.equal(cache.get(`t${TX_VIEWS_MAX + 99}`)?.view, TX_VIEWS_MAX + 99);
    // Large txs: the byte bound decides long before the count does.
    for (let i = 0; i < 1000; i++) cache.set(`big${i}`, 'tip', i, 400_000);
    assert.ok(cache.size.bytes <= TX_VIEW_BYTES_MAX, String(cache.size.bytes));
    assert.equal(cache.size.views, Math.floor(TX_VIEW_BYTES_MAX / 400_000));
    cache.set('huge', 'tip', 0, TX_VIEW_BYTES_MAX + 1);
    assert.equal(cache.get('huge'), undefined, 'a view larger than the whole budget is not kept');
    cache.set('big999', 'tip2', 7, 400_000);
    assert.deepEqual(cache.get('big999'), { tipHash: 'tip2', view: 7, bytes: 400_000 });
    assert.ok(cache.size.bytes <= TX_VIEW_BYTES_MAX);
  });
});
