import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { chooseEncoding, compressBuffer, compressedStream } from './compression.js';

test('chooseEncoding prefers brotli, honours q=0, falls back to identity', () => {
  assert.equal(chooseEncoding('gzip, deflate, br'), 'br');
  assert.equal(chooseEncoding('gzip'), 'gzip');
  assert.equal(chooseEncoding('br;q=0, gzip;q=0.8'), 'gzip');
  assert.equal(chooseEncoding('*'), 'gzip');
  assert.equal(chooseEncoding('identity'), null);
  assert.equal(chooseEncoding(undefined), null);
  assert.equal(chooseEncoding('gzip;q=0'), null);
});

test('compressBuffer round-trips in both encodings', async () => {
  const data = Buffer.from('<tr><td>1.00000000</td></tr>'.repeat(200));
  assert.deepEqual(brotliDecompressSync(await compressBuffer(data, 'br')), data);
  assert.deepEqual(gunzipSync(await compressBuffer(data, 'gzip')), data);
});

test('compressedStream: a source failing midway fails the compressed stream, nothing is thrown', async () => {
  async function* failing(): AsyncGenerator<string> {
    yield 'txid,block_height\n';
    throw new Error('store read failed');
  }
  for (const encoding of ['br', 'gzip'] as const) {
    const compressed = compressedStream(Readable.from(failing()), encoding);
    const failure = await new Promise<Error>((resolve) => compressed.on('error', resolve).resume());
    assert.equal(failure.message, 'store read failed');
    assert.ok(compressed.destroyed);
  }
});
