import { bech32, bech32m, type Bech32Decoded } from '@scure/base';
import { OP_0, OP_1 } from '../script/opcodes.js';

/*
 * Segwit addresses: BIP173 bech32 for witness v0, BIP350 bech32m for v1..v16, with Core's rules:
 * at most 90 characters, all-lower or all-upper case, the network's hrp, programs of 2..40 bytes
 * (v0 only 20 or 32), padding of at most 4 zero bits. Decoding fails with a reason, never throws.
 */

/** BIP173's length limit. */
const SEGWIT_ADDRESS_MAX_LENGTH = 90;

export interface WitnessDestination {
  readonly version: number;
  readonly program: Uint8Array;
}

/** Encodes with the checksum the version requires (bech32 for v0, bech32m for v1+). */
export function encodeSegwitAddress(hrp: string, version: number, program: Uint8Array): string {
  if (!Number.isInteger(version) || version < 0 || version > 16) throw new RangeError(`bad witness version ${version}`);
  if (program.length < 2 || program.length > 40) throw new RangeError(`bad witness program length ${program.length}`);
  if (version === 0 && program.length !== 20 && program.length !== 32) throw new RangeError('v0 program must be 20 or 32 bytes');
  const codec = version === 0 ? bech32 : bech32m;
  return codec.encode(hrp, [version, ...codec.toWords(program)], SEGWIT_ADDRESS_MAX_LENGTH);
}

/** Which checksum constant a string satisfies, with its decoded words. */
function decodeEither(address: string): { decoded: Bech32Decoded; isBech32m: boolean } | null {
  const plain = bech32.decodeUnsafe(address, SEGWIT_ADDRESS_MAX_LENGTH);
  if (plain) return { decoded: plain, isBech32m: false };
  const modified = bech32m.decodeUnsafe(address, SEGWIT_ADDRESS_MAX_LENGTH);
  if (modified) return { decoded: modified, isBech32m: true };
  return null;
}

export function decodeSegwitAddress(hrp: string, address: string): WitnessDestination | { readonly error: string } {
  if (address.length > SEGWIT_ADDRESS_MAX_LENGTH) return { error: `bech32 address longer than ${SEGWIT_ADDRESS_MAX_LENGTH} characters` };
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return { error: 'mixed-case bech32 string' };
  const result = decodeEither(address);
  if (!result) return { error: 'invalid bech32/bech32m string or checksum' };
  const { decoded, isBech32m } = result;
  if (decoded.prefix !== hrp) return { error: `bech32 prefix ${decoded.prefix} is not this network's (${hrp})` };
  const [version, ...data] = decoded.words;
  if (version === undefined) return { error: 'empty bech32 data section' };
  if (version > 16) return { error: `invalid witness version ${version}` };
  if (version === 0 && isBech32m) return { error: 'witness v0 address must use bech32, not bech32m' };
  if (version !== 0 && !isBech32m) return { error: `witness v${version} address must use bech32m, not bech32` };
  // fromWords rejects more than 4 padding bits and non-zero padding, as Core's ConvertBits does.
  const program = bech32.fromWordsUnsafe(data);
  if (!program) return { error: 'invalid padding in bech32 data section' };
  if (version === 0 && program.length !== 20 && program.length !== 32) {
    return { error: `witness v0 program must be 20 or 32 bytes, got ${program.length}` };
  }
  if (program.length < 2 || program.length > 40) return { error: `witness program must be 2..40 bytes, got ${program.length}` };
  return { version, program };
}

/** <OP_0 | OP_1..OP_16> <program> */
export function witnessScript(version: number, program: Uint8Array): Uint8Array {
  if (!Number.isInteger(version) || version < 0 || version > 16) throw new RangeError(`bad witness version ${version}`);
  if (program.length < 2 || program.length > 40) throw new RangeError(`bad witness program length ${program.length}`);
  return Uint8Array.of(version === 0 ? OP_0 : OP_1 + version - 1, program.length, ...program);
}
