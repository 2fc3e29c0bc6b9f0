import type { AuxPow, Block, MwebBlock, Transaction } from '../../core/domain/chain-types.js';
import { ParseError } from '../../core/domain/errors.js';
import type { ChainFeatures } from '../network-params.js';
import { ByteReader } from '../bytes/byte-reader.js';
import { readTransaction, type TxSizes } from '../tx/tx-parser.js';
import { hasAuxPow, readAuxPow } from './auxpow.js';
import { readBlockHeader } from './block-header.js';
import { MWEB_VERSION_BIT, readMwebBlock } from './mweb-block.js';

// version + empty vin + empty vout + locktime: no tx is shorter, so it bounds the tx count.
const MIN_TX_SIZE = 10;

/**
 * Parses a whole serialized block (every byte must be consumed).
 * - AuxPoW (features.auxpow, version bit 0x100): the proof sits between the header and the tx count.
 * - MWEB (features.mweb, version bit 0x20000000, last tx a HogEx): presence byte, then the extension.
 * strippedSize and weight follow Core; for Litecoin they use the NO_MWEB serialization (no extension,
 * no HogEx flag/null bytes): weight = 3 * strippedSize + size without MWEB data.
 */
export function parseBlock(bytes: Uint8Array, features: ChainFeatures): Block {
  const r = new ByteReader(bytes);
  const header = readBlockHeader(r);
  let auxpow: AuxPow | null = null;
  if (features.auxpow && hasAuxPow(header.version)) auxpow = readAuxPow(r);
  const countAt = r.pos;
  const txCount = r.count(MIN_TX_SIZE);
  const prefixSize = r.pos; // header, AuxPoW and tx count: identical in every serialization

  const txOptions = { mweb: features.mweb };
  const sizes: TxSizes = { base: 0 };
  const txs = new Array<Transaction>(txCount);
  let strippedSize = prefixSize;
  let weight = prefixSize * 4;
  for (let i = 0; i < txCount; i++) {
    const tx = readTransaction(r, txOptions, sizes);
    if (!features.segwit && tx.hasWitness) throw new ParseError('witness data on a chain without segwit', r.pos - tx.size);
    txs[i] = tx;
    strippedSize += sizes.base;
    weight += tx.weight;
  }
  if (txCount === 0) throw new ParseError('block without transactions', countAt);

  let mweb: MwebBlock | null = null;
  const last = txs[txCount - 1]!;
  if (features.mweb && (header.version & MWEB_VERSION_BIT) !== 0 && last.isHogEx) {
    const at = r.pos;
    const present = r.u8();
    if (present === 1) mweb = readMwebBlock(r);
    else if (present !== 0) throw new ParseError(`bad MWEB presence byte ${present}`, at);
  }
  r.assertEnd('block');
  return { header, auxpow, txs, mweb, size: bytes.length, strippedSize, weight, raw: bytes };
}
