import assert from 'node:assert/strict';
import { it } from 'node:test';
import { textFrame } from './websocket-frame.js';

it('builds unmasked text frames with the three RFC 6455 length encodings', () => {
  const header = (length: number): string => textFrame(Buffer.alloc(length, 'a')).subarray(0, length < 126 ? 2 : length < 65_536 ? 4 : 10).toString('hex');
  assert.equal(header(0), '8100');
  assert.equal(header(125), '817d');
  assert.equal(header(126), '817e007e');
  assert.equal(header(65_535), '817effff');
  assert.equal(header(65_536), '817f0000000000010000');
  const frame = textFrame(Buffer.from('hello'));
  assert.equal(frame.toString('hex'), '8105' + Buffer.from('hello').toString('hex'));
});
