import type { ChainFeatures } from '../network-params.js';
import { ByteReader } from '../bytes/byte-reader.js';
import { hasAuxPow, readAuxPow } from './auxpow.js';
import { readBlockHeader } from './block-header.js';

/**
 * A block's hash and transaction count without parsing its transactions: what a fetcher needs to check that the node
 * sent the block asked for and to size its batches, when the transactions are parsed elsewhere (another thread).
 * The count is the serialized one; a malformed block still fails in the full parse later.
 */
export function peekBlock(bytes: Uint8Array, features: ChainFeatures): { hash: string; txCount: number } {
  const r = new ByteReader(bytes);
  const header = readBlockHeader(r);
  if (features.auxpow && hasAuxPow(header.version)) readAuxPow(r);
  return { hash: header.hash, txCount: r.count(1) };
}
