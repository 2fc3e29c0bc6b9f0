/*
 * Script opcodes and their names exactly as Bitcoin Core's GetOpName() prints them in asm:
 * OP_0 is "0", OP_1NEGATE "-1", OP_1..OP_16 "1".."16", 0xba OP_CHECKSIGADD (tapscript;
 * Litecoin has it too), 0xff OP_INVALIDOPCODE, everything else unnamed is OP_UNKNOWN.
 * (Dogecoin Core 1.14 predates tapscript and prints 0xba as OP_UNKNOWN; we print Core's name.)
 */

export const OP_0 = 0x00;
export const OP_PUSHDATA1 = 0x4c;
export const OP_PUSHDATA2 = 0x4d;
export const OP_PUSHDATA4 = 0x4e;
export const OP_1NEGATE = 0x4f;
export const OP_RESERVED = 0x50;
export const OP_1 = 0x51;
export const OP_8 = 0x58;
export const OP_9 = 0x59;
export const OP_16 = 0x60;
export const OP_RETURN = 0x6a;
export const OP_DUP = 0x76;
export const OP_EQUAL = 0x87;
export const OP_EQUALVERIFY = 0x88;
export const OP_HASH160 = 0xa9;
export const OP_CHECKSIG = 0xac;
export const OP_CHECKMULTISIG = 0xae;
export const OP_INVALIDOPCODE = 0xff;

/** Names of 0x61..0xba in order (0x61 OP_NOP … 0xba OP_CHECKSIGADD). */
const NAMED_FROM_0x61 = [
  'OP_NOP', 'OP_VER', 'OP_IF', 'OP_NOTIF', 'OP_VERIF', 'OP_VERNOTIF', 'OP_ELSE', 'OP_ENDIF', 'OP_VERIFY', 'OP_RETURN',
  'OP_TOALTSTACK', 'OP_FROMALTSTACK', 'OP_2DROP', 'OP_2DUP', 'OP_3DUP', 'OP_2OVER', 'OP_2ROT', 'OP_2SWAP', 'OP_IFDUP',
  'OP_DEPTH', 'OP_DROP', 'OP_DUP', 'OP_NIP', 'OP_OVER', 'OP_PICK', 'OP_ROLL', 'OP_ROT', 'OP_SWAP', 'OP_TUCK',
  'OP_CAT', 'OP_SUBSTR', 'OP_LEFT', 'OP_RIGHT', 'OP_SIZE',
  'OP_INVERT', 'OP_AND', 'OP_OR', 'OP_XOR', 'OP_EQUAL', 'OP_EQUALVERIFY', 'OP_RESERVED1', 'OP_RESERVED2',
  'OP_1ADD', 'OP_1SUB', 'OP_2MUL', 'OP_2DIV', 'OP_NEGATE', 'OP_ABS', 'OP_NOT', 'OP_0NOTEQUAL', 'OP_ADD', 'OP_SUB',
  'OP_MUL', 'OP_DIV', 'OP_MOD', 'OP_LSHIFT', 'OP_RSHIFT', 'OP_BOOLAND', 'OP_BOOLOR', 'OP_NUMEQUAL',
  'OP_NUMEQUALVERIFY', 'OP_NUMNOTEQUAL', 'OP_LESSTHAN', 'OP_GREATERTHAN', 'OP_LESSTHANOREQUAL',
  'OP_GREATERTHANOREQUAL', 'OP_MIN', 'OP_MAX', 'OP_WITHIN',
  'OP_RIPEMD160', 'OP_SHA1', 'OP_SHA256', 'OP_HASH160', 'OP_HASH256', 'OP_CODESEPARATOR', 'OP_CHECKSIG',
  'OP_CHECKSIGVERIFY', 'OP_CHECKMULTISIG', 'OP_CHECKMULTISIGVERIFY',
  'OP_NOP1', 'OP_CHECKLOCKTIMEVERIFY', 'OP_CHECKSEQUENCEVERIFY', 'OP_NOP4', 'OP_NOP5', 'OP_NOP6', 'OP_NOP7',
  'OP_NOP8', 'OP_NOP9', 'OP_NOP10',
  'OP_CHECKSIGADD',
] as const;

const OP_NAMES: readonly string[] = (() => {
  const names = new Array<string>(256).fill('OP_UNKNOWN');
  names[OP_0] = '0';
  names[OP_PUSHDATA1] = 'OP_PUSHDATA1';
  names[OP_PUSHDATA2] = 'OP_PUSHDATA2';
  names[OP_PUSHDATA4] = 'OP_PUSHDATA4';
  names[OP_1NEGATE] = '-1';
  names[OP_RESERVED] = 'OP_RESERVED';
  for (let n = 1; n <= 16; n++) names[OP_1 + n - 1] = String(n);
  NAMED_FROM_0x61.forEach((name, i) => (names[0x61 + i] = name));
  names[OP_INVALIDOPCODE] = 'OP_INVALIDOPCODE';
  return names;
})();

/**
 * Core's GetOpName. Direct pushes 0x01..0x4b have no name there either ("OP_UNKNOWN"),
 * but asm never asks for them: it prints their data instead.
 */
export function getOpName(opcode: number): string {
  return OP_NAMES[opcode] ?? 'OP_UNKNOWN';
}

/** OP_1..OP_16 (not OP_0): Core's IsSmallInteger. */
export function isSmallInteger(opcode: number): boolean {
  return opcode >= OP_1 && opcode <= OP_16;
}

/** The value of OP_0 / OP_1..OP_16 (Core's DecodeOP_N). */
export function decodeOpN(opcode: number): number {
  return opcode === OP_0 ? 0 : opcode - (OP_1 - 1);
}
