/**
 * Block-level pieces of the synthetic chain: Bitcoin regtest's own genesis block, BIP34 coinbases with a BIP141
 * witness commitment, merkle roots, and headers whose proof of work really meets regtest's target (0x207fffff: about
 * every second nonce does, so grinding costs two hashes).
 */
import { hash } from 'node:crypto';
import { merkleRootOfHashes } from '../../src/chains/parsing.js';
import type { ByteSink } from './byte-sink.js';

export const REGTEST_BITS = 0x207fffff;
export const REGTEST_GENESIS_TIME = 1296688602;

/** The coinbase of Bitcoin's genesis block (same on mainnet, testnet3 and regtest). */
const GENESIS_COINBASE_HEX =
  '01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff4d04ffff001d0104455468652054696d65732030332f4a616e2f32303039204368616e63656c6c6f72206f6e206272696e6b206f66207365636f6e64206261696c6f757420666f722062616e6b73ffffffff0100f2052a01000000434104678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5fac00000000';

export function sha256d(data: Uint8Array): Buffer {
  return hash('sha256', hash('sha256', data, 'buffer'), 'buffer');
}

/** Bitcoin regtest's genesis block, byte for byte (hash 0f9188f1…2206). */
export function regtestGenesis(): Uint8Array {
  const coinbase = Buffer.from(GENESIS_COINBASE_HEX, 'hex');
  const header = Buffer.alloc(80);
  header.writeInt32LE(1, 0);
  sha256d(coinbase).copy(header, 36);
  header.writeUInt32LE(REGTEST_GENESIS_TIME, 68);
  header.writeUInt32LE(REGTEST_BITS, 72);
  header.writeUInt32LE(2, 76);
  return Buffer.concat([header, Buffer.of(1), coinbase]);
}

/** True when the internal-order hash, read as a little-endian 256-bit number, is at most the target of `bits`. */
export function meetsTarget(blockHash: Uint8Array, bits: number): boolean {
  const exponent = bits >>> 24;
  const mantissa = bits & 0x7fffff;
  const target = new Uint8Array(32);
  for (let i = 0; i < 3; i++) {
    const at = exponent - 3 + i;
    if (at >= 0 && at < 32) target[at] = (mantissa >>> (8 * i)) & 0xff;
  }
  for (let i = 31; i >= 0; i--) {
    if (blockHash[i]! !== target[i]!) return blockHash[i]! < target[i]!;
  }
  return true;
}

/** Writes the 80-byte header at sink.pos, grinding the nonce until the hash meets the target; returns the hash. */
export function writeHeader(sink: ByteSink, prevHash: Uint8Array, merkleRoot: Uint8Array, time: number): Buffer {
  const at = sink.pos;
  sink.u32(0x20000000);
  sink.bytes(prevHash);
  sink.bytes(merkleRoot);
  sink.u32(time);
  sink.u32(REGTEST_BITS);
  sink.u32(0);
  const header = sink.buf.subarray(at, at + 80);
  for (let nonce = 0; ; nonce++) {
    new DataView(header.buffer, header.byteOffset + 76, 4).setUint32(0, nonce, true);
    const blockHash = sha256d(header);
    if (meetsTarget(blockHash, REGTEST_BITS)) return blockHash;
  }
}

/** BIP34 height push: a minimal CScriptNum (OP_0, OP_1..OP_16 for small heights, as Core's `CScript() << height`). */
export function writeHeightPush(sink: ByteSink, height: number): void {
  if (height === 0) return sink.u8(0x00);
  if (height <= 16) return sink.u8(0x50 + height);
  const bytes: number[] = [];
  for (let v = height; v > 0; v = Math.floor(v / 256)) bytes.push(v & 0xff);
  if (bytes[bytes.length - 1]! & 0x80) bytes.push(0);
  sink.u8(bytes.length);
  for (const b of bytes) sink.u8(b);
}

const COMMITMENT_HEADER = [0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed];
const POOL_TAG = Buffer.from('/outpoint-scale-bench/');

/**
 * A segwit coinbase: BIP34 height + tag in the scriptSig, `reward` to the pool's script (already serialized with its
 * length prefix), the BIP141 commitment to `witnessRoot`, and the 32-byte witness reserved value (zeros).
 */
export function writeCoinbase(sink: ByteSink, height: number, reward: number, poolScript: Uint8Array, witnessRoot: Uint8Array): void {
  sink.reserve(256);
  sink.u32(2);
  sink.u8x2(0, 1);
  sink.u8(1);
  for (let i = 0; i < 32; i++) sink.u8(0);
  sink.u32(0xffffffff);
  const lengthAt = sink.pos;
  sink.u8(0);
  writeHeightPush(sink, height);
  sink.u8(POOL_TAG.length);
  sink.bytes(POOL_TAG);
  sink.buf[lengthAt] = sink.pos - lengthAt - 1;
  sink.u32(0xffffffff);
  sink.u8(2);
  sink.u64(reward);
  sink.bytes(poolScript);
  sink.u64(0);
  sink.u8(38);
  for (const b of COMMITMENT_HEADER) sink.u8(b);
  const preimage = new Uint8Array(64);
  preimage.set(witnessRoot, 0);
  sink.bytes(sha256d(preimage));
  sink.u8x2(1, 32);
  for (let i = 0; i < 32; i++) sink.u8(0);
  sink.u32(0);
}

/** Merkle root over `count` 32-byte internal-order hashes stored back to back. */
export function merkleOf(hashes: Uint8Array, count: number): Uint8Array {
  const list: Uint8Array[] = new Array<Uint8Array>(count);
  for (let i = 0; i < count; i++) list[i] = hashes.subarray(i * 32, i * 32 + 32);
  return merkleRootOfHashes(list);
}
