import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '../../../../test/helpers/postgres-server.js';
import { BufferPool } from '../../../core/infrastructure/buffer-pool.js';
import { BinaryRows, byteaBytes, COPY_BYTES as B, COPY_FRAME_BYTES, copyPayload, copyRows } from './postgres-copy.js';

let server: PostgresServer;
let client: pg.Client;

before(async () => {
  server = await startPostgres();
  client = new pg.Client({ connectionString: server.url });
  await client.connect();
});

after(async () => {
  await client?.end();
  await server?.stop();
});

/** Safe integers of both signs around the 32-bit word boundary, and bigints at the int8 limits. */
function int8Of(i: number): number | bigint {
  const cases: (number | bigint)[] = [0, -1, 2 ** 32, -(2 ** 32) - 1, 2 ** 40 + 5, -(2 ** 53 - 1), 2 ** 53 - 1, 2n ** 63n - 1n, -(2n ** 63n), -7n * 2n ** 40n, 4294967295];
  return cases[i % cases.length]!;
}

describe('binary COPY rows', () => {
  it('round-trips every field type through a real server, NUMERIC exact past 2^63', async () => {
    await client.query(`CREATE TEMP TABLE t (
      i2 SMALLINT, i4 INTEGER, i8 BIGINT, b BOOLEAN, bytes BYTEA, n NUMERIC(40,0), maybe INTEGER)`);
    const numerics = [0n, 1n, 9999n, 10000n, 10001n, 100000000n, 2n ** 63n + 12345n, 10n ** 39n - 1n, -5n, -120000n, 7n * 10n ** 20n];
    const rows = new BinaryRows(7, 64);
    numerics.forEach((n, i) => {
      rows.row().int2(i - 3).int4(-70000 + i).int8(int8Of(i)).bool(i % 3 === 0)
        .bytea(Buffer.from([i, 0, 255])).numeric(n).int4OrNull(i % 2 === 0 ? null : i);
    });
    assert.equal(rows.rows, numerics.length);
    await copyRows(client, 't', rows);
    const got = (await client.query('SELECT i2, i4, i8::text AS i8, b, encode(bytes, \'hex\') AS bytes, n::text AS n, maybe FROM t')).rows;
    assert.equal(got.length, numerics.length);
    got.forEach((r, i) => {
      assert.equal(r.i2, i - 3);
      assert.equal(r.i4, -70000 + i);
      assert.equal(r.i8, String(int8Of(i)));
      assert.equal(r.b, i % 3 === 0);
      assert.equal(r.bytes, Buffer.from([i, 0, 255]).toString('hex'));
      assert.equal(r.n, numerics[i]!.toString(), `numeric ${numerics[i]}`);
      assert.equal(r.maybe, i % 2 === 0 ? null : i);
    });
  });

  it('writes a hash from its hex digits as its 32 bytes, and rejects a malformed one', async () => {
    await client.query('CREATE TEMP TABLE hashes (h BYTEA NOT NULL)');
    const hex = '00ff'.repeat(15) + '1234';
    await copyRows(client, 'hashes', new BinaryRows(1, 64).row().hashHex(hex));
    const r = (await client.query("SELECT encode(h, 'hex') AS h FROM hashes")).rows[0];
    assert.equal(r.h, hex);
    assert.throws(() => new BinaryRows(1, 64).row().hashHex('zz'.repeat(32)), /not a 32-byte hex hash/);
  });

  it('grows past its first buffer and copies nothing when empty', async () => {
    await client.query('CREATE TEMP TABLE big (bytes BYTEA NOT NULL)');
    const empty = new BinaryRows(1, 64);
    await copyRows(client, 'big', empty);
    const rows = new BinaryRows(1, 64);
    for (let i = 0; i < 500; i++) rows.row().bytea(Buffer.alloc(1000, i % 256));
    await copyRows(client, 'big', rows);
    const r = (await client.query('SELECT count(*)::int AS n, sum(length(bytes))::int AS bytes FROM big')).rows[0];
    assert.deepEqual(r, { n: 500, bytes: 500_000 });
  });

  it('fills a payload sized from COPY_BYTES exactly, in memory of its own that can be transferred', async () => {
    await client.query('CREATE TEMP TABLE sized (i8 BIGINT, i4 INTEGER, h BYTEA, b BOOLEAN, bytes BYTEA, maybe BIGINT)');
    const count = 1000;
    const size = COPY_FRAME_BYTES + count * (B.row + B.int8 + B.int4 + B.hash + B.bool + byteaBytes(10) + B.null);
    const rows = new BinaryRows(6, size);
    for (let i = 0; i < count; i++) rows.row().int8(i).int4(i).hashHex('ab'.repeat(32)).bool(true).bytea(Buffer.alloc(10, 1)).int8OrNull(null);
    const payload = rows.finish();
    assert.equal(payload.length, size, 'the sizes add up to the payload');
    assert.equal(payload.buffer.byteLength, size, 'never grown (finish included)');
    assert.equal(payload.byteOffset, 0);
    // Transferable: detaching it leaves no other view of the same memory in use.
    const copy = Buffer.from(payload);
    structuredClone(payload.buffer, { transfer: [payload.buffer as ArrayBuffer] });
    await copyPayload(client, 'sized', copy);
    const r = (await client.query('SELECT count(*)::int AS n, sum(i8)::int AS s, count(maybe)::int AS m FROM sized')).rows[0];
    assert.deepEqual(r, { n: count, s: (count * (count - 1)) / 2, m: 0 });
  });

  it('takes its memory from a pool and gives back what it outgrows or does not send', async () => {
    await client.query('CREATE TEMP TABLE pooled (bytes BYTEA NOT NULL)');
    const pool = new BufferPool();
    const first = new ArrayBuffer(128 * 1024);
    pool.give(first);
    const rows = new BinaryRows(1, 100 * 1024, pool);
    assert.equal(pool.size, 0, 'the kept buffer was taken');
    for (let i = 0; i < 300; i++) rows.row().bytea(Buffer.alloc(1000, i % 256));
    assert.equal(pool.size, 1, 'outgrown: the first buffer is back in the pool');
    assert.equal(pool.take(64 * 1024).buffer, first);
    await copyRows(client, 'pooled', rows);
    const r = (await client.query('SELECT count(*)::int AS n, sum(length(bytes))::int AS bytes FROM pooled')).rows[0];
    assert.deepEqual(r, { n: 300, bytes: 300_000 });
    const unsent = new BinaryRows(1, 100 * 1024, pool);
    unsent.discard();
    assert.equal(pool.size, 1, 'rows never sent give their memory back');
  });

  it('fails the COPY (and the caller) on a type the column does not take', async () => {
    await client.query('CREATE TEMP TABLE strict_types (i8 BIGINT)');
    const rows = new BinaryRows(1).row().int4(5);
    await assert.rejects(copyRows(client, 'strict_types', rows), /insufficient data|incorrect binary data format/);
  });
});
