/**
 * Dogecoin Core 1.14's genesis blocks (CreateGenesisBlock in chainparams.cpp): the "Nintondo" coinbase paying
 * 88 DOGE to a fixed pubkey, version 1, per network time/nonce/bits. Built with our serializer and checked
 * against the genesis hashes in src/chains/networks.ts, so a stand-in on "test" or "main" answers the real
 * genesis hash (what Outpoint's start-up check compares).
 */
import type { ChainKind } from '../../../src/core/domain/network.js';
import { ByteWriter, merkleRoot, parseBlock, parseTransaction, serializeBlock } from '../../../src/chains/parsing.js';
import { getNetworkParams } from '../../../src/chains/networks.js';
import type { Block } from '../../../src/core/domain/chain-types.js';
import { DOGE_FEATURES } from './regtest-rules.js';

const TIMESTAMP = Buffer.from('Nintondo', 'ascii');
const PUBKEY = Buffer.from(
  '040184710fa689ad5023690c80f3a49c8f13f8d45b8c857fbcbc8bc4a8e4d3eb4b10f4d4604fa08dce601aaf0f470216fe1b51850b4acf21b179c45070ac7b03a9',
  'hex',
);
const OP_CHECKSIG = 0xac;

const HEADERS: Record<ChainKind, { time: number; nonce: number; bits: number }> = {
  main: { time: 1386325540, nonce: 99943, bits: 0x1e0ffff0 },
  test: { time: 1391503289, nonce: 997879, bits: 0x1e0ffff0 },
  regtest: { time: 1296688602, nonce: 2, bits: 0x207fffff },
};

export function genesisBlock(chain: ChainKind): Block {
  // scriptSig: CScript() << 486604799 << CScriptNum(4) << "Nintondo"
  const scriptSig = new ByteWriter().u8(4).u32(486604799).u8(1).u8(4).u8(TIMESTAMP.length).bytes(TIMESTAMP).finish();
  const coinbase = parseTransaction(
    new ByteWriter()
      .i32(1).compactSize(1).bytes(new Uint8Array(32)).u32(0xffffffff).varBytes(scriptSig).u32(0xffffffff)
      .compactSize(1).i64(88n * 100_000_000n).varBytes(Uint8Array.of(PUBKEY.length, ...PUBKEY, OP_CHECKSIG))
      .u32(0).finish(),
  );
  const h = HEADERS[chain];
  const header = { version: 1, prevHash: '00'.repeat(32), merkleRoot: merkleRoot([coinbase.txid]), ...h };
  const block = parseBlock(serializeBlock({ header, auxpow: null, txs: [coinbase] }), DOGE_FEATURES);
  const expected = getNetworkParams(chain === 'main' ? 'DOGE' : 'DOGETEST', chain).genesisHash;
  if (block.header.hash !== expected) throw new Error(`stand-in ${chain} genesis ${block.header.hash} != ${expected}`);
  return block;
}
