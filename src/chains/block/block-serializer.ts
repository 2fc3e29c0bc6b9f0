import type { AuxPow, Block, BlockHeader, Transaction } from '../../core/domain/chain-types.js';
import { ByteWriter } from '../bytes/byte-writer.js';
import { fromDisplayHex } from '../hash.js';
import { serializeTransaction } from '../tx/tx-serializer.js';
import { hasAuxPow } from './auxpow.js';
import { HEADER_SIZE } from './block-header.js';

/** The header fields that are serialized (the hash is derived from them). */
export type HeaderFields = Pick<BlockHeader, 'version' | 'prevHash' | 'merkleRoot' | 'time' | 'bits' | 'nonce'>;

/** What a block is serialized from: a parsed Block, or one being built (ids and sizes come from re-parsing it). */
export interface BlockParts {
  readonly header: HeaderFields;
  readonly auxpow: AuxPow | null;
  readonly txs: readonly Transaction[];
}

function writeHeader(w: ByteWriter, h: HeaderFields): void {
  w.i32(h.version).bytes(fromDisplayHex(h.prevHash)).bytes(fromDisplayHex(h.merkleRoot)).u32(h.time).u32(h.bits).u32(h.nonce);
}

function writeBranch(w: ByteWriter, branch: readonly string[]): void {
  w.compactSize(branch.length);
  for (const hash of branch) w.bytes(fromDisplayHex(hash));
}

/** The 80 header bytes (no AuxPoW): what the block hash is taken over. */
export function serializeBlockHeader(header: HeaderFields): Uint8Array {
  const w = new ByteWriter(HEADER_SIZE);
  writeHeader(w, header);
  return w.finish();
}

/**
 * A merge-mining proof as CAuxPow serializes it (the inverse of readAuxPow): the parent coinbase as a CMerkleTx
 * (tx, hashBlock, branch, index), the chain merkle branch and index, then the parent's 80-byte header.
 */
export function serializeAuxPow(auxpow: AuxPow): Uint8Array {
  const w = new ByteWriter(256 + auxpow.parentCoinbase.size);
  writeAuxPow(w, auxpow);
  return w.finish();
}

function writeAuxPow(w: ByteWriter, a: AuxPow): void {
  w.bytes(serializeTransaction(a.parentCoinbase));
  w.bytes(fromDisplayHex(a.parentBlockHash));
  writeBranch(w, a.coinbaseBranch);
  w.i32(a.coinbaseIndex);
  writeBranch(w, a.chainBranch);
  w.i32(a.chainIndex);
  writeHeader(w, a.parentHeader);
}

/**
 * Serializes a block as parseBlock reads it: header, the AuxPoW when the version announces one, the tx count and
 * the transactions (with their witnesses). Litecoin MWEB extension blocks are not written (RangeError): nothing
 * builds them. An AuxPoW that disagrees with the version bit is a RangeError too, since it would not parse back.
 */
export function serializeBlock(block: BlockParts | Block): Uint8Array {
  if ('mweb' in block && block.mweb !== null) throw new RangeError('serializeBlock: MWEB extension blocks are not supported');
  if (hasAuxPow(block.header.version) !== (block.auxpow !== null)) {
    throw new RangeError('serializeBlock: the AuxPoW version bit and the AuxPoW payload disagree');
  }
  const w = new ByteWriter(HEADER_SIZE + block.txs.reduce((n, tx) => n + tx.size, 16));
  writeHeader(w, block.header);
  if (block.auxpow) writeAuxPow(w, block.auxpow);
  w.compactSize(block.txs.length);
  for (const tx of block.txs) w.bytes(serializeTransaction(tx));
  return w.finish();
}
