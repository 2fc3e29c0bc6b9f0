import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ParseError } from '../../core/domain/errors.js';
import { ByteReader, displayHex } from './byte-reader.js';
import { ByteWriter } from './byte-writer.js';

const reader = (...bytes: number[]): ByteReader => new ByteReader(Uint8Array.from(bytes));

void test('fixed-width integers are little endian', () => {
  const r = reader(0x01, 0x02, 0x03, 0x04, 0x05, 0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0, 0, 0, 0, 0x80);
  assert.equal(r.u8(), 1);
  assert.equal(r.u16(), 0x0302);
  assert.equal(r.u16(), 0x0504);
  assert.equal(r.i32(), -1);
  assert.equal(r.i64(), -(2n ** 63n) + 1n);
  assert.equal(r.remaining, 0);
  assert.throws(() => r.u8(), ParseError);
});

void test('CompactSize: canonical encodings only, bounded by MAX_SIZE', () => {
  assert.equal(reader(0xfc).compactSize(), 0xfc);
  assert.equal(reader(0xfd, 0xfd, 0x00).compactSize(), 0xfd);
  assert.throws(() => reader(0xfd, 0xfc, 0x00).compactSize(), /non-canonical/);
  assert.throws(() => reader(0xfe, 0xff, 0xff, 0x00, 0x00).compactSize(), /non-canonical/);
  assert.throws(() => reader(0xff, 0, 0, 0, 0, 1, 0, 0, 0).compactSize(), ParseError);
  assert.throws(() => reader(0xfe, 0x01, 0x00, 0x00, 0x02).compactSize(), /exceeds/);
});

void test('a huge element count fails before any allocation', () => {
  assert.throws(() => reader(0xfe, 0x00, 0x00, 0x00, 0x01).count(1), /cannot fit/);
  assert.throws(() => reader(0x05, 1, 2, 3).varBytes(), /past the end/);
});

void test('Core VARINT vectors (serialize_tests.cpp varint examples)', () => {
  const vectors: [bigint, number[]][] = [
    [0n, [0x00]],
    [0x7fn, [0x7f]],
    [0x80n, [0x80, 0x00]],
    [0x1234n, [0xa3, 0x34]],
    [0xffffn, [0x82, 0xfe, 0x7f]],
    [0x123456n, [0xc7, 0xe7, 0x56]],
    [0x80123456n, [0x86, 0xff, 0xc7, 0xe7, 0x56]],
    [0xffffffffn, [0x8e, 0xfe, 0xfe, 0xfe, 0x7f]],
  ];
  for (const [value, bytes] of vectors) {
    assert.deepEqual([...new ByteWriter().varint(value).finish()], bytes, `write ${value}`);
    assert.equal(reader(...bytes).varint(), value, `read ${value}`);
  }
  assert.throws(() => reader(0x80, 0x80).varint(), ParseError);
  assert.throws(() => reader(...new Array<number>(11).fill(0xff), 0x00).varint(), /too large/);
});

void test('writer/reader round trip for arbitrary values', () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
      fc.integer({ min: 0, max: 0x02000000 }),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.uint8Array({ maxLength: 300 }),
      (v, size, amount, blob) => {
        const bytes = new ByteWriter(1).varint(v).compactSize(size).i64(amount).varBytes(blob).finish();
        const r = new ByteReader(bytes);
        assert.equal(r.varint(), v);
        assert.equal(r.compactSize(), size);
        assert.equal(r.i64(), amount);
        assert.deepEqual(r.varBytes(), blob);
        r.assertEnd('test');
      },
    ),
  );
});

void test('random bytes never escape as anything but ParseError', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
      const r = new ByteReader(bytes);
      try {
        for (;;) {
          r.varint();
          r.compactSize();
          r.varBytes();
        }
      } catch (err) {
        assert.ok(err instanceof ParseError, String(err));
      }
    }),
  );
});

void test('displayHex reverses 32 bytes', () => {
  const bytes = Uint8Array.from({ length: 40 }, (_, i) => i);
  assert.equal(displayHex(bytes, 8), Buffer.from(bytes.subarray(8, 40)).reverse().toString('hex'));
});
