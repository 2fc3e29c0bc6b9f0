import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readSync } from 'node:fs';
import { Duplex } from 'node:stream';
import { after, describe, it } from 'node:test';
import { waitFor } from '../../../test/helpers/regtest-node.js';
import { TcpPairs } from '../../../test/helpers/tcp-pairs.js';
import { sendAll } from './send-all.js';
import { directFd, finishDirect, plainFd } from './socket-write.js';

/** One frame to one socket the way a publish sends it: directly when the rules allow, else the stream. */
function writeFrame(socket: Duplex, bytes: Uint8Array): number {
  const fd = directFd(socket, plainFd(socket));
  if (fd < 0) {
    socket.write(bytes);
    return 0;
  }
  const out = new Int32Array(1);
  sendAll(Int32Array.of(fd), 1, bytes, out, 1);
  finishDirect(socket, bytes, out[0]!);
  return Math.max(0, out[0]!);
}

function frame(i: number, size: number): Buffer {
  const bytes = Buffer.alloc(size, i % 251);
  bytes.writeUInt32BE(i, 0);
  return bytes;
}

describe('direct sends (directFd, finishDirect)', () => {
  const pairs = new TcpPairs();
  after(() => pairs.close());

  it('writes straight to the descriptor when nothing is queued', async () => {
    const { writer, reader } = await pairs.pair();
    const got = once(reader, 'data') as Promise<[Buffer]>;
    const bytes = frame(7, 300);
    assert.equal(writeFrame(writer, bytes), 300, 'the kernel took the whole frame in one write');
    assert.equal(writer.writableLength, 0);
    const [data] = await got;
    assert.deepEqual(data, bytes);
    const fd = plainFd(writer);
    reader.destroy();
    writer.destroy();
    assert.equal(directFd(writer, fd), -1, 'a destroyed socket\'s descriptor (closed, maybe reused) is never written');
  });

  it('keeps every byte in order when the reader stalls and the kernel buffer fills (EAGAIN, partial writes)', async () => {
    const { writer, reader } = await pairs.pair();
    reader.pause();
    const frames = Array.from({ length: 400 }, (_, i) => frame(i, 16_384 + (i % 7) * 1_000));
    let direct = 0;
    for (const f of frames) direct += writeFrame(writer, f) > 0 ? 1 : 0;
    assert.ok(writer.writableLength > 0, 'the stream holds what the kernel refused');
    assert.ok(direct > 0 && direct < frames.length, `some frames went out directly, the rest through the stream (${direct})`);
    const expected = Buffer.concat(frames);
    const chunks: Buffer[] = [];
    let length = 0;
    reader.on('data', (c: Buffer) => {
      chunks.push(c);
      length += c.length;
    });
    reader.resume();
    await waitFor(() => length >= expected.length, 10_000, 'the bytes', 5);
    assert.equal(length, expected.length);
    assert.ok(Buffer.concat(chunks).equals(expected), 'bytes arrive exactly in write order');
    reader.destroy();
    writer.destroy();
  });

  it('never overtakes bytes the stream still holds, even once the kernel has room again', async () => {
    const { writer, reader } = await pairs.pair();
    reader.pause();
    const frames: Buffer[] = [];
    for (let i = 0; writer.writableLength === 0; i++) {
      frames.push(frame(i, 16_384));
      writeFrame(writer, frames[i]!);
    }
    // Drain the reader's kernel buffer synchronously (libuv gets no turn to flush the writer's queue), so the
    // writer's descriptor accepts bytes again while its stream still holds the tail of the frames above.
    const readerFd = (reader as unknown as { _handle: { fd: number } })._handle.fd;
    const sink = Buffer.alloc(1 << 20);
    const drained: Buffer[] = [];
    for (let spins = 0; spins < 1000; spins++) {
      try {
        const n = readSync(readerFd, sink);
        drained.push(Buffer.from(sink.subarray(0, n)));
      } catch {
        if (drained.length > 0) break;
      }
    }
    assert.ok(writer.writableLength > 0, 'the stream still holds bytes');
    const marker = frame(999_999, 100);
    frames.push(marker);
    assert.equal(writeFrame(writer, marker), 0, 'queued behind the stream, not written directly');
    const expected = Buffer.concat(frames);
    let length = drained.reduce((n, c) => n + c.length, 0);
    reader.on('data', (c: Buffer) => {
      drained.push(c);
      length += c.length;
    });
    reader.resume();
    await waitFor(() => length >= expected.length, 10_000, 'the bytes', 5);
    assert.ok(Buffer.concat(drained).equals(expected), 'bytes arrive exactly in write order');
    reader.destroy();
    writer.destroy();
  });

  it('queues behind a corked stream', async () => {
    const { writer, reader } = await pairs.pair();
    const chunks: Buffer[] = [];
    reader.on('data', (c: Buffer) => chunks.push(c));
    writer.cork();
    writer.write('first,');
    assert.equal(writeFrame(writer, Buffer.from('second')), 0);
    writer.uncork();
    await waitFor(() => Buffer.concat(chunks).length >= 12, 10_000, 'the bytes', 5);
    assert.equal(Buffer.concat(chunks).toString(), 'first,second');
    reader.destroy();
    writer.destroy();
  });

  it('reports a write to a reset connection through the stream, without throwing', async () => {
    const { writer, reader } = await pairs.pair();
    reader.resetAndDestroy();
    await once(writer, 'end').catch(() => undefined);
    const errors: Error[] = [];
    writer.on('error', (e) => errors.push(e));
    for (let i = 0; i < 50 && errors.length === 0 && !writer.destroyed; i++) {
      writeFrame(writer, frame(i, 1_000));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.ok(errors.length > 0 || writer.destroyed, 'the stream reported the reset');
  });

  it('uses the stream for anything that is not a plain TCP socket', () => {
    const written: Buffer[] = [];
    const duplex = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk);
        callback();
      },
    });
    assert.equal(writeFrame(duplex, Buffer.from('abc')), 0);
    assert.deepEqual(written, [Buffer.from('abc')]);
  });
});
