import type { BlockHeader } from '../../core/domain/chain-types.js';
import { ByteReader } from '../bytes/byte-reader.js';
import { sha256dDisplayHex } from '../hash.js';

export const HEADER_SIZE = 80;

/** Reads an 80-byte header at the reader's position; the hash covers these 80 bytes only. */
export function readBlockHeader(r: ByteReader): BlockHeader {
  const start = r.need(HEADER_SIZE);
  const raw = r.bytes.subarray(start, start + HEADER_SIZE);
  const version = r.i32();
  const prevHash = r.hashHex();
  const merkleRoot = r.hashHex();
  const time = r.u32();
  const bits = r.u32();
  const nonce = r.u32();
  const hash = sha256dDisplayHex(raw);
  return { hash, version, prevHash, merkleRoot, time, bits, nonce, raw };
}

/** Parses exactly 80 bytes. */
export function parseBlockHeader(bytes: Uint8Array): BlockHeader {
  const r = new ByteReader(bytes);
  const header = readBlockHeader(r);
  r.assertEnd('block header');
  return header;
}
