import type { AuxPow } from '../../core/domain/chain-types.js';
import type { ByteReader } from '../bytes/byte-reader.js';
import { readTransaction } from '../tx/tx-parser.js';
import { readBlockHeader } from './block-header.js';

/** Version bit announcing an AuxPoW payload after the header (Dogecoin); the chain id sits above bit 16. */
export const AUXPOW_VERSION_BIT = 0x100;

export function hasAuxPow(version: number): boolean {
  return (version & AUXPOW_VERSION_BIT) !== 0;
}

/** Display-order chain id from the header version (0x62 for Dogecoin). */
export function auxPowChainId(version: number): number {
  return version >>> 16;
}

function readBranch(r: ByteReader): string[] {
  const n = r.count(32);
  const branch = new Array<string>(n);
  for (let i = 0; i < n; i++) branch[i] = r.hashHex();
  return branch;
}

/**
 * Reads a merge-mining proof (Namecoin/Dogecoin CAuxPow): the parent coinbase as a CMerkleTx
 * (tx, block hash, branch, index), the chain merkle branch and index, then the parent's 80-byte header.
 * Hashes are display order. PoW (scrypt of the parent header) is a consensus check, not done here.
 */
export function readAuxPow(r: ByteReader): AuxPow {
  const parentCoinbase = readTransaction(r);
  const parentBlockHash = r.hashHex();
  const coinbaseBranch = readBranch(r);
  const coinbaseIndex = r.i32();
  const chainBranch = readBranch(r);
  const chainIndex = r.i32();
  const parentHeader = readBlockHeader(r);
  return { parentCoinbase, parentBlockHash, coinbaseBranch, coinbaseIndex, chainBranch, chainIndex, parentHeader };
}
