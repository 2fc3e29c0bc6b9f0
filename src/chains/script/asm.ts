import { toHex } from '../hash.js';
import { OP_RETURN, getOpName } from './opcodes.js';
import { decodeScriptNum, readScript } from './script-reader.js';

/*
 * Bitcoin Core's ScriptToAsmStr, byte for byte: pushes of up to 4 bytes print as CScriptNum
 * decimals (so OP_0 is "0"), longer pushes as hex, other opcodes by GetOpName, and a truncated
 * push ends the string with "[error]".
 */

/** Core's MAX_SCRIPT_SIZE: longer scripts are unspendable, like OP_RETURN ones. */
const MAX_SCRIPT_SIZE = 10_000;

const SIGHASH_NAMES: ReadonlyMap<number, string> = new Map([
  [0x01, 'ALL'],
  [0x02, 'NONE'],
  [0x03, 'SINGLE'],
  [0x81, 'ALL|ANYONECANPAY'],
  [0x82, 'NONE|ANYONECANPAY'],
  [0x83, 'SINGLE|ANYONECANPAY'],
]);

/** Core's IsValidSignatureEncoding (BIP66 strict DER) over the signature including its hashtype byte. */
export function isValidSignatureEncoding(sig: Uint8Array): boolean {
  const size = sig.length;
  if (size < 9 || size > 73) return false;
  if (sig[0] !== 0x30 || sig[1] !== size - 3) return false;
  const lenR = sig[3] as number;
  if (5 + lenR >= size) return false;
  const lenS = sig[5 + lenR] as number;
  if (lenR + lenS + 7 !== size) return false;
  if (sig[2] !== 0x02 || lenR === 0 || (sig[4] as number) & 0x80) return false;
  if (lenR > 1 && sig[4] === 0x00 && !((sig[5] as number) & 0x80)) return false;
  if (sig[lenR + 4] !== 0x02 || lenS === 0 || (sig[lenR + 6] as number) & 0x80) return false;
  if (lenS > 1 && sig[lenR + 6] === 0x00 && !((sig[lenR + 7] as number) & 0x80)) return false;
  return true;
}

/** "<hex>[ALL]"-style rendering when `data` passes Core's STRICTENC signature check, else null. */
function decodeSignature(data: Uint8Array): string | null {
  if (!isValidSignatureEncoding(data)) return null;
  const name = SIGHASH_NAMES.get(data[data.length - 1] as number);
  return name === undefined ? null : `${toHex(data.subarray(0, -1))}[${name}]`;
}

export interface AsmOptions {
  /** Render DER signatures with their sighash type (Core does this for scriptSig, not for scriptPubKey). */
  readonly sighashDecode?: boolean;
}

export function scriptToAsm(script: Uint8Array, options: AsmOptions = {}): string {
  // Core never decodes signatures inside unspendable scripts (OP_RETURN data may look like one).
  const unspendable = (script.length > 0 && script[0] === OP_RETURN) || script.length > MAX_SCRIPT_SIZE;
  const decodeSigs = options.sighashDecode === true && !unspendable;
  const parts: string[] = [];
  for (const op of readScript(script)) {
    if (op.kind === 'truncated') {
      parts.push('[error]');
      break;
    }
    if (op.kind === 'op') {
      parts.push(getOpName(op.opcode));
    } else if (op.data.length <= 4) {
      parts.push(String(decodeScriptNum(op.data)));
    } else {
      parts.push((decodeSigs ? decodeSignature(op.data) : null) ?? toHex(op.data));
    }
  }
  return parts.join(' ');
}
