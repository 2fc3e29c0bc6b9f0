import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromHex, toHex } from '../hash.js';
import { decodeScriptNum, isMinimalPush, isPushOnly, scriptOps } from './script-reader.js';

const ops = (hex: string) =>
  scriptOps(fromHex(hex)).map((op) => (op.kind === 'push' ? `push:${toHex(op.data)}@${op.offset}` : `${op.kind}:${op.opcode.toString(16)}@${op.offset}`));

describe('script reader', () => {
  it('reads direct and PUSHDATA1/2/4 pushes with their offsets', () => {
    assert.deepEqual(ops('00'), ['push:@0']);
    assert.deepEqual(ops('0201027651'), ['push:0102@0', 'op:76@3', 'op:51@4']);
    assert.deepEqual(ops('4c0111'), ['push:11@0']);
    assert.deepEqual(ops('4d010022'), ['push:22@0']);
    assert.deepEqual(ops('4e0100000033ac'), ['push:33@0', 'op:ac@6']);
  });

  it('reports truncated pushes as the last op without throwing', () => {
    assert.deepEqual(ops('76020a'), ['op:76@0', 'truncated:2@1']);
    assert.deepEqual(ops('4c'), ['truncated:4c@0']);
    assert.deepEqual(ops('4dff'), ['truncated:4d@0']);
    assert.deepEqual(ops('4effffffff01'), ['truncated:4e@0']);
  });

  it('implements IsPushOnly, CheckMinimalPush and CScriptNum', () => {
    assert.ok(isPushOnly(fromHex('00510150604f')));
    assert.ok(!isPushOnly(fromHex('0061')));
    assert.ok(!isPushOnly(fromHex('02ff'))); // truncated
    assert.ok(isMinimalPush(0x00, new Uint8Array()));
    assert.ok(!isMinimalPush(0x01, Uint8Array.of(5))); // should be OP_5
    assert.ok(!isMinimalPush(0x01, Uint8Array.of(0x81))); // should be OP_1NEGATE
    assert.ok(isMinimalPush(0x01, Uint8Array.of(0x11)));
    assert.ok(!isMinimalPush(0x4c, Uint8Array.of(0x11)));
    assert.ok(isMinimalPush(0x4c, new Uint8Array(76)));
    assert.deepEqual(['', '01', '81', 'ff00', '0080', 'ffffff7f', 'ffffffff'].map((h) => decodeScriptNum(fromHex(h))), [
      0, 1, -1, 255, -0, 2147483647, -2147483647,
    ]);
  });
});
