import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BufferPool } from './buffer-pool.js';

const KIB = 1024;

describe('buffer pool', () => {
  it('hands back the smallest kept buffer that fits, and fresh memory when none does', () => {
    const pool = new BufferPool();
    const small = new ArrayBuffer(100 * KIB);
    const large = new ArrayBuffer(400 * KIB);
    pool.give(large);
    pool.give(small);
    const got = pool.take(90 * KIB);
    assert.equal(got.buffer, small, 'the smallest that fits');
    assert.equal(got.length, 100 * KIB, 'the whole kept buffer');
    assert.equal(pool.take(300 * KIB).buffer, large);
    assert.equal(pool.size, 0);
    const fresh = pool.take(200 * KIB);
    assert.ok(fresh.length >= 200 * KIB * 1.25, 'a new one is a quarter larger than asked');
    assert.equal(fresh.byteOffset, 0);
    assert.equal(fresh.buffer.byteLength, fresh.length, 'its own memory, not a view of a shared pool');
  });

  it('neither keeps nor takes small buffers, nor keeps detached ones', () => {
    const pool = new BufferPool();
    pool.give(new ArrayBuffer(10 * KIB));
    assert.equal(pool.size, 0);
    const kept = new ArrayBuffer(100 * KIB);
    pool.give(kept);
    const small = pool.take(1 * KIB);
    assert.notEqual(small.buffer, kept, 'a small request leaves the large buffer for a large one');
    assert.equal(small.buffer.byteLength, 1 * KIB);
    assert.equal(pool.size, 1);
    const moved = new ArrayBuffer(100 * KIB);
    structuredClone(moved, { transfer: [moved] }); // detached, as after a transfer to another thread
    pool.give(moved);
    assert.equal(pool.size, 1);
  });

  it('keeps at most its bound, letting the smallest go first', () => {
    const pool = new BufferPool(2);
    const sizes = [300, 100, 200].map((k) => new ArrayBuffer(k * KIB));
    for (const b of sizes) pool.give(b);
    assert.equal(pool.size, 2);
    assert.equal(pool.take(64 * KIB).buffer, sizes[2], 'the 100 KiB one was let go');
    assert.equal(pool.take(64 * KIB).buffer, sizes[0]);
    assert.equal(pool.keptBytes, 0);
  });

  it('keeps at most its bytes, letting the smallest go first', () => {
    const pool = new BufferPool(16, 64 * KIB, 500 * KIB);
    const a = new ArrayBuffer(200 * KIB);
    const b = new ArrayBuffer(250 * KIB);
    pool.give(a);
    pool.give(b);
    assert.equal(pool.keptBytes, 450 * KIB);
    pool.give(new ArrayBuffer(100 * KIB));
    assert.equal(pool.keptBytes, 450 * KIB, 'the new smallest went: 550 KiB would pass the bound');
    pool.give(new ArrayBuffer(600 * KIB));
    assert.equal(pool.size, 0, 'one buffer beyond the bound is not kept either');
  });
});
