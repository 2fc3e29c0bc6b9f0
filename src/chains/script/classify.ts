import type { ChainFeatures } from '../network-params.js';
import {
  OP_0,
  OP_1,
  OP_16,
  OP_CHECKMULTISIG,
  OP_CHECKSIG,
  OP_DUP,
  OP_EQUAL,
  OP_EQUALVERIFY,
  OP_HASH160,
  OP_RETURN,
  decodeOpN,
  isSmallInteger,
} from './opcodes.js';
import { decodeScriptNum, isMinimalPush, isPushOnly, readScript } from './script-reader.js';

/*
 * Output script types with Bitcoin/Litecoin Core's Solver() names, in Solver's order of tests.
 * Pay-to-anchor (OP_1 <4e73>), "anchor" since Bitcoin Core 28, is reported as witness_unknown
 * (its type before 28; the address is the same) because the API's type list has no "anchor".
 */
export type ScriptType =
  | 'pubkey'
  | 'pubkeyhash'
  | 'scripthash'
  | 'multisig'
  | 'nulldata'
  | 'witness_v0_keyhash'
  | 'witness_v0_scripthash'
  | 'witness_v1_taproot'
  | 'witness_unknown'
  | 'witness_mweb_pegin'
  | 'witness_mweb_hogaddr'
  | 'nonstandard';

/** Core's MAX_PUBKEYS_PER_MULTISIG. */
const MAX_MULTISIG_KEYS = 20;

export interface WitnessProgram {
  readonly version: number;
  readonly program: Uint8Array;
}

/** Core's IsWitnessProgram: OP_0 or OP_1..OP_16, then one direct push of 2..40 bytes, nothing else. */
export function getWitnessProgram(script: Uint8Array): WitnessProgram | null {
  if (script.length < 4 || script.length > 42) return null;
  const first = script[0] as number;
  if (first !== OP_0 && (first < OP_1 || first > OP_16)) return null;
  if ((script[1] as number) + 2 !== script.length) return null;
  return { version: decodeOpN(first), program: script.subarray(2) };
}

/** CPubKey::ValidSize: 33 bytes with prefix 02/03 or 65 bytes with 04/06/07. The point itself is not checked. */
export function isValidPubkeySize(data: Uint8Array): boolean {
  const prefix = data[0];
  if (prefix === 0x02 || prefix === 0x03) return data.length === 33;
  if (prefix === 0x04 || prefix === 0x06 || prefix === 0x07) return data.length === 65;
  return false;
}

export function isP2sh(script: Uint8Array): boolean {
  return script.length === 23 && script[0] === OP_HASH160 && script[1] === 20 && script[22] === OP_EQUAL;
}

export function isP2pkh(script: Uint8Array): boolean {
  return (
    script.length === 25 &&
    script[0] === OP_DUP &&
    script[1] === OP_HASH160 &&
    script[2] === 20 &&
    script[23] === OP_EQUALVERIFY &&
    script[24] === OP_CHECKSIG
  );
}

/** The key of a P2PK output (`<33 or 65-byte key> OP_CHECKSIG`), or null. */
export function getP2pkPubkey(script: Uint8Array): Uint8Array | null {
  const len = script.length;
  if ((len === 35 || len === 67) && script[0] === len - 2 && script[len - 1] === OP_CHECKSIG) {
    const key = script.subarray(1, len - 1);
    return isValidPubkeySize(key) ? key : null;
  }
  return null;
}

/** Core's GetScriptNumber for multisig counts: OP_1..OP_16, or a minimal push of a number in range. */
function multisigCount(op: { kind: string; opcode: number; data?: Uint8Array }, min: number): number | null {
  let n: number;
  if (op.kind === 'op' && isSmallInteger(op.opcode)) n = decodeOpN(op.opcode);
  else if (op.kind === 'push' && op.data) {
    if (!isMinimalPush(op.opcode, op.data) || op.data.length > 4 || !isMinimalScriptNum(op.data)) return null;
    n = decodeScriptNum(op.data);
  } else return null;
  return n >= min && n <= MAX_MULTISIG_KEYS ? n : null;
}

/** CScriptNum's minimal-encoding rule: no unneeded trailing 0x00/0x80 byte. */
function isMinimalScriptNum(data: Uint8Array): boolean {
  const size = data.length;
  if (size === 0) return true;
  if (((data[size - 1] as number) & 0x7f) !== 0) return true;
  return size > 1 && ((data[size - 2] as number) & 0x80) !== 0;
}

/** Core's MatchMultisig: <m> <key>… <n> OP_CHECKMULTISIG with n keys of valid size and 1 ≤ m ≤ n ≤ 20. */
function isMultisig(script: Uint8Array): boolean {
  if (script.length < 1 || script[script.length - 1] !== OP_CHECKMULTISIG) return false;
  const ops = [...readScript(script)];
  const [first] = ops;
  if (!first || first.kind === 'truncated') return false;
  const required = multisigCount(first, 1);
  if (required === null) return false;
  let i = 1;
  while (i < ops.length) {
    const op = ops[i] as (typeof ops)[number];
    if (op.kind !== 'push' || !isValidPubkeySize(op.data)) break;
    i++;
  }
  const countOp = ops[i];
  if (!countOp || countOp.kind === 'truncated') return false;
  const keys = multisigCount(countOp, required);
  if (keys === null || keys !== i - 1) return false;
  // Exactly one op (the OP_CHECKMULTISIG checked above) may follow the key count.
  return ops.length === i + 2;
}

/**
 * Solver(). MWEB types (OP_8/OP_9 + 32 bytes) exist only on Litecoin; elsewhere those scripts are
 * ordinary future witness versions (witness_unknown). Pass the chain's features to decide; without
 * them the Litecoin reading is used (the fixtures only hold such scripts on Litecoin networks).
 */
export function classifyScript(script: Uint8Array, features?: Pick<ChainFeatures, 'mweb'>): ScriptType {
  const mweb = features?.mweb ?? true;
  if (isP2sh(script)) return 'scripthash';
  const witness = getWitnessProgram(script);
  if (witness) {
    const { version, program } = witness;
    if (version === 0 && program.length === 20) return 'witness_v0_keyhash';
    if (version === 0 && program.length === 32) return 'witness_v0_scripthash';
    if (version === 1 && program.length === 32) return 'witness_v1_taproot';
    if (mweb && version === 8 && program.length === 32) return 'witness_mweb_hogaddr';
    if (mweb && version === 9 && program.length === 32) return 'witness_mweb_pegin';
    // v0 programs of any other size are not spendable as witness programs: Core says nonstandard.
    return version === 0 ? 'nonstandard' : 'witness_unknown';
  }
  // Data carrier: OP_RETURN then only pushes. The size limit is relay policy, not part of the type.
  if (script.length >= 1 && script[0] === OP_RETURN && isPushOnly(script, 1)) return 'nulldata';
  if (getP2pkPubkey(script)) return 'pubkey';
  if (isP2pkh(script)) return 'pubkeyhash';
  if (isMultisig(script)) return 'multisig';
  return 'nonstandard';
}
