/**
 * Block assembly as Dogecoin Core 1.14's `generatetoaddress` does it (miner.cpp CreateNewBlock, rpc/mining.cpp
 * generateBlocks, auxpow.cpp CAuxPow::initAuxPow): a BIP34 coinbase `<height> <extranonce>` paying subsidy + fees,
 * base version 4 with chain id 0x62, and a merge-mining proof whose fake parent block (version 1, one input-only
 * coinbase committing to the block hash) is ground until its scrypt hash meets the block's bits. Every block is
 * serialized by our chains library and must parse back to the same bytes.
 */
import { scryptSync } from 'node:crypto';
import type { AuxPow, Block, Transaction } from '../../../src/core/domain/chain-types.js';
import {
  ByteWriter, merkleRoot, parseBlock, parseBlockHeader, parseTransaction, serializeBlock, serializeBlockHeader, targetFromBits, type HeaderFields,
} from '../../../src/chains/parsing.js';
import { toHex } from '../../../src/chains/hash.js';
import type { BlockEntry } from './chain-state.js';
import { DOGE_FEATURES, REGTEST, regtestSubsidy } from './regtest-rules.js';

export const AUXPOW_FLAG = 0x100;

export interface BlockTemplate {
  readonly parent: BlockEntry;
  /** Non-coinbase txs in an order where parents come first. */
  readonly txs: readonly Transaction[];
  readonly fees: bigint;
  readonly payTo: Uint8Array;
  /** Unix seconds; raised to the parent's median time past + 1 if needed (UpdateTime). */
  readonly time: number;
  /** false: a legacy block with its own scrypt proof of work (valid below height 20 only). */
  readonly auxpow: boolean;
}

/** CScript() << n: OP_0, OP_1..OP_16, or a minimal CScriptNum push. */
function pushNumber(w: ByteWriter, n: number): void {
  if (n === 0) {
    w.u8(0x00);
    return;
  }
  if (n >= 1 && n <= 16) {
    w.u8(0x50 + n);
    return;
  }
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.push(v & 0xff);
  if (bytes[bytes.length - 1]! & 0x80) bytes.push(0);
  w.u8(bytes.length).bytes(Uint8Array.from(bytes));
}

function coinbaseTx(height: number, value: bigint, payTo: Uint8Array): Transaction {
  const script = new ByteWriter(16);
  pushNumber(script, height);
  script.u8(1).u8(1); // CScriptNum(nExtraNonce = 1): IncrementExtraNonce's first value
  const w = new ByteWriter(128).i32(1).compactSize(1).bytes(new Uint8Array(32)).u32(0xffffffff).varBytes(script.finish()).u32(0xffffffff);
  w.compactSize(1).i64(value).varBytes(payTo).u32(0);
  return parseTransaction(w.finish());
}

/** The scrypt proof-of-work hash (Litecoin's N=1024, r=1, p=1 over the 80 header bytes) meets the bits. */
function meetsTarget(header: HeaderFields, bits: number): boolean {
  const bytes = serializeBlockHeader(header);
  const hash = scryptSync(bytes, bytes, 32, { N: 1024, r: 1, p: 1 });
  return BigInt(`0x${toHex(Buffer.from(hash).reverse())}`) <= targetFromBits(bits);
}

function grind(header: HeaderFields, bits: number): HeaderFields {
  for (let nonce = 0; ; nonce++) {
    const candidate = { ...header, nonce };
    if (meetsTarget(candidate, bits)) return candidate;
  }
}

/** CAuxPow::initAuxPow for the block header (already flagged AuxPoW), then the parent nonce is ground. */
function initAuxPow(header: HeaderFields): AuxPow {
  const blockHash = parseBlockHeader(serializeBlockHeader(header)).hash;
  // inputData: the block hash reversed (display order), then merkle size 1 and nonce 0 as LE uint32s.
  const inputData = new ByteWriter(40).bytes(Buffer.from(blockHash, 'hex')).u32(1).u32(0).finish();
  const coinbase = parseTransaction(
    new ByteWriter(64).i32(1).compactSize(1).bytes(new Uint8Array(32)).u32(0xffffffff)
      .varBytes(new ByteWriter(41).u8(inputData.length).bytes(inputData).finish()).u32(0xffffffff)
      .compactSize(0).u32(0).finish(),
  );
  const parent = grind({ version: 1, prevHash: '00'.repeat(32), merkleRoot: coinbase.txid, time: 0, bits: 0, nonce: 0 }, header.bits);
  return {
    parentCoinbase: coinbase,
    // CMerkleTx(coinbaseRef) leaves hashBlock null and nothing sets it.
    parentBlockHash: '00'.repeat(32),
    coinbaseBranch: [],
    coinbaseIndex: 0,
    chainBranch: [],
    chainIndex: 0,
    parentHeader: parseBlockHeader(serializeBlockHeader(parent)),
  };
}

/** Builds, serializes and re-parses a block; throws unless our parser reads back exactly what was written. */
export function assembleBlock(t: BlockTemplate): Block {
  const height = t.parent.height + 1;
  if (!t.auxpow && height >= REGTEST.legacyBelowHeight) throw new Error(`legacy blocks are only valid below height ${REGTEST.legacyBelowHeight}`);
  const coinbase = coinbaseTx(height, regtestSubsidy(height) + t.fees, t.payTo);
  const txs = [coinbase, ...t.txs];
  const version = REGTEST.baseVersion | (REGTEST.auxpowChainId << 16) | (t.auxpow ? AUXPOW_FLAG : 0);
  const fields: HeaderFields = {
    version,
    prevHash: t.parent.hash,
    merkleRoot: merkleRoot(txs.map((tx) => tx.txid)),
    time: Math.max(t.parent.medianTimePast + 1, t.time),
    bits: REGTEST.bits,
    nonce: 0,
  };
  const header = t.auxpow ? fields : grind(fields, fields.bits);
  const auxpow = t.auxpow ? initAuxPow(header) : null;
  const raw = serializeBlock({ header, auxpow, txs });
  const block = parseBlock(raw, DOGE_FEATURES);
  if (toHex(serializeBlock(block)) !== toHex(raw)) throw new Error('stand-in block does not round-trip through our parser');
  return block;
}
