import { blake3 } from '@noble/hashes/blake3.js';
import type { MwebBlock } from '../../core/domain/chain-types.js';
import { ParseError } from '../../core/domain/errors.js';
import { toHex } from '../hash.js';
import type { ByteReader } from '../bytes/byte-reader.js';
import { readMwebTxBody } from '../tx/mweb-tx-body.js';

/** Header version bit under which a Litecoin block may carry an MWEB extension after its HogEx. */
export const MWEB_VERSION_BIT = 0x20000000;

/**
 * Reads the extension block that follows the presence byte 0x01: mw::Header (Core VARINTs for the
 * integers) then the MW body. Roots/offsets are hex in serialized byte order, as Litecoin Core's
 * getblock prints them, and headerHash equals the HogEx output-0 program.
 */
export function readMwebBlock(r: ByteReader): MwebBlock {
  const start = r.pos;
  const height = r.varintNumber();
  if (height > 0x7fffffff) throw new ParseError('MWEB header height out of range', start);
  const roots: string[] = [];
  for (let i = 0; i < 5; i++) roots.push(toHex(r.slice(32)));
  const outputMmrSize = r.varint();
  const kernelMmrSize = r.varint();
  const headerBytes = r.bytes.subarray(start, r.pos);
  const body = readMwebTxBody(r);
  return {
    height,
    outputRoot: roots[0]!,
    kernelRoot: roots[1]!,
    leafsetRoot: roots[2]!,
    kernelOffset: roots[3]!,
    stealthOffset: roots[4]!,
    outputMmrSize,
    kernelMmrSize,
    headerHash: toHex(blake3(headerBytes)),
    numInputs: body.numInputs,
    numOutputs: body.numOutputs,
    numKernels: body.numKernels,
    raw: r.bytes.subarray(start, r.pos),
  };
}
