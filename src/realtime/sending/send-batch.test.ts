import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WireFrame } from '../protocol/protocol-messages.js';
import { SendBatch, type DirectTarget } from './send-batch.js';
import type { SendAll } from './send-all.js';

const frame = { bytes: Buffer.from('hello') } as WireFrame;

/** Records each call and answers out[i] from the descriptor: fd 0..n sends all, fd >= 1000 sends 2 bytes, fd >= 2000 fails. */
function recordingSender(): { sendAll: SendAll; calls: { fds: number[]; threads: number }[] } {
  const calls: { fds: number[]; threads: number }[] = [];
  const sendAll: SendAll = (fds, count, bytes, out, threads) => {
    calls.push({ fds: [...fds.subarray(0, count)], threads });
    for (let i = 0; i < count; i++) out[i] = fds[i]! >= 2000 ? -32 : fds[i]! >= 1000 ? 2 : bytes.length;
  };
  return { sendAll, calls };
}

function target(results: number[]): DirectTarget {
  return { directFd: () => -1, completeDirect: (_f, sent) => void results.push(sent) };
}

describe('SendBatch', () => {
  it('sends once to everything added and hands each target its own result', () => {
    const { sendAll, calls } = recordingSender();
    const batch = new SendBatch(sendAll, 4);
    const results: number[][] = [[], [], []];
    batch.add(target(results[0]!), 5);
    batch.add(target(results[1]!), 1001);
    batch.add(target(results[2]!), 2002);
    assert.equal(batch.flush(frame), 3);
    assert.deepEqual(calls, [{ fds: [5, 1001, 2002], threads: 1 }], 'three sockets do not justify a thread');
    assert.deepEqual(results, [[5], [2], [-32]]);
    assert.equal(batch.flush(frame), 0, 'a flush empties the batch');
    assert.equal(calls.length, 1, 'an empty batch makes no call');
  });

  it('grows past its first arrays and uses threads only for a thousand sockets each', () => {
    const { sendAll, calls } = recordingSender();
    const batch = new SendBatch(sendAll, 4);
    const results: number[] = [];
    for (let i = 0; i < 2500; i++) batch.add(target(results), i % 500);
    assert.equal(batch.flush(frame), 2500);
    assert.equal(calls[0]!.threads, 2);
    assert.equal(calls[0]!.fds.length, 2500);
    assert.deepEqual(calls[0]!.fds.slice(495, 505), [495, 496, 497, 498, 499, 0, 1, 2, 3, 4]);
    assert.equal(results.length, 2500);
    for (let i = 0; i < 10_000; i++) batch.add(target(results), 1);
    batch.flush(frame);
    assert.equal(calls[1]!.threads, 4, 'capped at the configured threads');
  });
});
