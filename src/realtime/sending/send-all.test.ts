import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { waitFor } from '../../../test/helpers/regtest-node.js';
import { TcpPairs } from '../../../test/helpers/tcp-pairs.js';
import { plainFd } from './socket-write.js';
import { nativeSendAll, sendAllInJs, type SendAll } from './send-all.js';

const EAGAIN = 11;

function collect(reader: Socket): { bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  reader.on('data', (c: Buffer) => chunks.push(c));
  return { bytes: () => Buffer.concat(chunks) };
}

describe('sendAll', () => {
  const tcp = new TcpPairs();
  after(() => tcp.close());

  it('the native sender is built (npm ci builds native/fanout; without it the JS sender serves)', () => {
    assert.equal(typeof nativeSendAll, 'function');
  });

  const variants: [string, SendAll, number][] = [
    ['JS', sendAllInJs, 1],
    ['native, one thread', nativeSendAll!, 1],
    ['native, three threads', nativeSendAll!, 3],
  ];
  for (const [name, sendAll, threads] of variants) {
    it(`${name}: every socket gets the whole frame once, out[i] = its length`, async () => {
      const pairs: { writer: Socket; reader: Socket }[] = [];
      for (let i = 0; i < 40; i++) pairs.push(await tcp.pair());
      const readers = pairs.map((p) => collect(p.reader));
      const fds = new Int32Array(64).fill(-1);
      pairs.forEach((p, i) => (fds[i] = plainFd(p.writer)));
      const out = new Int32Array(64).fill(12345);
      const frame = Buffer.from(`frame for ${name}`.repeat(20));
      sendAll(fds, pairs.length, frame, out, threads);
      assert.deepEqual([...out.subarray(0, pairs.length)], pairs.map(() => frame.length));
      assert.equal(out[pairs.length], 12345, 'nothing past count is touched');
      await waitFor(() => readers.every((r) => r.bytes().length >= frame.length), 10_000, 'the bytes', 5);
      for (const r of readers) assert.ok(r.bytes().equals(frame));
      for (const p of pairs) p.writer.destroy();
    });

    it(`${name}: a full send buffer gives a partial count or -EAGAIN, not a block or a throw`, async () => {
      const { writer, reader } = await tcp.pair();
      reader.pause();
      const fds = Int32Array.of(plainFd(writer));
      const out = new Int32Array(1);
      const frame = Buffer.alloc(64 * 1024, 7);
      let total = 0;
      for (let i = 0; i < 1000 && out[0] !== -EAGAIN; i++) {
        sendAll(fds, 1, frame, out, threads);
        if (out[0]! > 0) total += out[0]!;
      }
      assert.equal(out[0], -EAGAIN);
      assert.ok(total > 0);
      writer.destroy();
    });

    it(`${name}: a reset peer gives a negative errno (EPIPE or ECONNRESET), no signal`, async () => {
      const { writer, reader } = await tcp.pair();
      writer.on('error', () => undefined);
      // Not reading, Node does not see the reset and keeps the descriptor open for us to write to.
      writer.pause();
      const fds = Int32Array.of(plainFd(writer));
      reader.resetAndDestroy();
      const out = new Int32Array(1);
      for (let i = 0; i < 50 && out[0]! >= 0; i++) {
        sendAll(fds, 1, Buffer.from('x'), out, threads);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      assert.ok([-32, -104].includes(out[0]!), `errno ${out[0]}`);
      writer.destroy();
    });
  }

  it('native: rejects arguments of the wrong shape with a TypeError', () => {
    const fds = new Int32Array(2);
    const out = new Int32Array(2);
    assert.throws(() => nativeSendAll!(fds, 3, Buffer.from('x'), out, 1), TypeError, 'count beyond the arrays');
    assert.throws(() => nativeSendAll!(new Uint32Array(2) as unknown as Int32Array, 1, Buffer.from('x'), out, 1), TypeError);
    assert.throws(() => nativeSendAll!(fds, 1, 'x' as unknown as Uint8Array, out, 1), TypeError);
  });
});
