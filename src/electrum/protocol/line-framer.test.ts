import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LineFramer } from './line-framer.js';

function frame(max: number, chunks: string[]): { lines: string[]; overflowed: boolean } {
  const lines: string[] = [];
  let overflowed = false;
  const framer = new LineFramer(max, (l) => lines.push(l), () => { overflowed = true; });
  for (const c of chunks) framer.push(Buffer.from(c));
  return { lines, overflowed };
}

describe('Electrum line framing', () => {
  it('splits lines across and within chunks, drops CR and blank lines', () => {
    assert.deepEqual(frame(100, ['{"a":1}\n{"b"', ':2}\r\n\n', '{"c":', '3}\n{"d"']), { lines: ['{"a":1}', '{"b":2}', '{"c":3}'], overflowed: false });
    assert.deepEqual(frame(100, ['é"\n']).lines, ['é"'], 'utf-8 split nowhere wrong');
    const split = Buffer.from('"é"\n');
    const lines: string[] = [];
    const framer = new LineFramer(100, (l) => lines.push(l), () => undefined);
    framer.push(split.subarray(0, 2));
    framer.push(split.subarray(2));
    assert.deepEqual(lines, ['"é"'], 'a character split between chunks');
  });

  it('overflows on a line longer than the bound, ended or not, and reads nothing after', () => {
    assert.deepEqual(frame(8, ['123456789\n{"a":1}\n']), { lines: [], overflowed: true });
    assert.deepEqual(frame(8, ['12345', '6789']), { lines: [], overflowed: true });
    assert.deepEqual(frame(8, ['1234\n12345678\n']), { lines: ['1234', '12345678'], overflowed: false });
  });
});
