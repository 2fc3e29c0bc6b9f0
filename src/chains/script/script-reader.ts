import { OP_PUSHDATA1, OP_PUSHDATA2, OP_PUSHDATA4 } from './opcodes.js';

/*
 * Walks a script one operation at a time like Core's GetScriptOp. Scripts are untrusted chain
 * data (outputs may hold any bytes), so a push whose length prefix or data runs past the end is
 * reported as a `truncated` op and ends the walk; nothing here throws.
 */

export type ScriptOp =
  /** A data push: opcode 0x00..0x4e with its data (empty for OP_0). */
  | { readonly kind: 'push'; readonly opcode: number; readonly data: Uint8Array; readonly offset: number }
  /** Any other opcode (including OP_1NEGATE and OP_1..OP_16, which Core does not treat as pushes here). */
  | { readonly kind: 'op'; readonly opcode: number; readonly offset: number }
  /** A push whose size prefix or data is cut off by the end of the script; always the last op. */
  | { readonly kind: 'truncated'; readonly opcode: number; readonly offset: number };

function readPushSize(script: Uint8Array, opcode: number, pos: number): { size: number; next: number } | null {
  if (opcode < OP_PUSHDATA1) return { size: opcode, next: pos };
  const width = opcode === OP_PUSHDATA1 ? 1 : opcode === OP_PUSHDATA2 ? 2 : 4;
  if (script.length - pos < width) return null;
  let size = 0;
  // Little-endian; multiplication keeps 32-bit sizes positive (no sign bit surprises).
  for (let i = width - 1; i >= 0; i--) size = size * 256 + (script[pos + i] as number);
  return { size, next: pos + width };
}

/** Yields each operation in order; a truncated push is yielded once and ends the iteration. */
export function* readScript(script: Uint8Array): Generator<ScriptOp> {
  let pos = 0;
  while (pos < script.length) {
    const offset = pos;
    const opcode = script[pos++] as number;
    if (opcode > OP_PUSHDATA4) {
      yield { kind: 'op', opcode, offset };
      continue;
    }
    const header = readPushSize(script, opcode, pos);
    if (!header || script.length - header.next < header.size) {
      yield { kind: 'truncated', opcode, offset };
      return;
    }
    pos = header.next + header.size;
    yield { kind: 'push', opcode, data: script.subarray(header.next, pos), offset };
  }
}

/** All operations at once (convenience for pattern matching on short scripts). */
export function scriptOps(script: Uint8Array): ScriptOp[] {
  return [...readScript(script)];
}

/**
 * Core's CScript::IsPushOnly from `start`: every op is a complete push or an opcode up to OP_16.
 * OP_RESERVED (0x50) counts as push-type there, and so it does here.
 */
export function isPushOnly(script: Uint8Array, start = 0): boolean {
  for (const op of readScript(script.subarray(start))) {
    if (op.kind === 'truncated') return false;
    if (op.opcode > 0x60) return false;
  }
  return true;
}

/**
 * Core's CheckMinimalPush: the data could not have been pushed with a shorter opcode
 * (OP_0, OP_1NEGATE, OP_1..OP_16, a direct push, then PUSHDATA1/2/4 by size).
 */
export function isMinimalPush(opcode: number, data: Uint8Array): boolean {
  const size = data.length;
  if (size === 0) return opcode === 0x00;
  const first = data[0] as number;
  if (size === 1 && first >= 1 && first <= 16) return false; // should be OP_1..OP_16
  if (size === 1 && first === 0x81) return false; // should be OP_1NEGATE
  if (size <= 75) return opcode === size;
  if (size <= 255) return opcode === OP_PUSHDATA1;
  if (size <= 65535) return opcode === OP_PUSHDATA2;
  return true;
}

/** CScriptNum decoding of up to 4 bytes (little-endian sign-magnitude). */
export function decodeScriptNum(data: Uint8Array): number {
  if (data.length === 0) return 0;
  let value = 0;
  for (let i = data.length - 1; i >= 0; i--) value = value * 256 + (data[i] as number);
  const last = data[data.length - 1] as number;
  if (last & 0x80) return -(value - 0x80 * 256 ** (data.length - 1));
  return value;
}
