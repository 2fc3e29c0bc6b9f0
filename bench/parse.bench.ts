import { readFileSync } from 'node:fs';
import { Block as BitcoinjsBlock } from 'bitcoinjs-lib';
import type { ChainFeatures } from '../src/chains/network-params.js';
import { parseBlock } from '../src/chains/block/block-parser.js';

// Throughput of parseBlock (txids and wtxids computed, as the indexer needs them) on the largest
// fixture blocks, compared with bitcoinjs-lib's Block.fromBuffer where it can parse the block
// (no AuxPoW, no MWEB). bitcoinjs computes no txids in fromBuffer; its "+ids" row adds getId().

const FIXTURES = new URL('../test/fixtures/blocks/', import.meta.url);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 2);

const CASES: { file: string; features: ChainFeatures; bitcoinjs: boolean }[] = [
  { file: 'BTCTEST-301321.json', features: { segwit: true, mweb: false, auxpow: false }, bitcoinjs: true },
  { file: 'DOGE-12345.json', features: { segwit: false, mweb: false, auxpow: true }, bitcoinjs: true },
  { file: 'BTC-542213.json', features: { segwit: true, mweb: false, auxpow: false }, bitcoinjs: true },
  { file: 'LTCTEST-2215586.json', features: { segwit: true, mweb: true, auxpow: false }, bitcoinjs: false },
  { file: 'DOGE-2264125.json', features: { segwit: false, mweb: false, auxpow: true }, bitcoinjs: false },
];

interface Rate {
  mbPerSec: number;
  txPerSec: number;
}

function measure(bytes: Uint8Array, txCount: number, fn: (b: Uint8Array) => unknown): Rate {
  for (let i = 0; i < 50; i++) fn(bytes); // warm-up so the JIT has compiled the hot paths
  let iterations = 0;
  const start = process.hrtime.bigint();
  const budget = BigInt(Math.round(SECONDS * 1e9));
  let elapsed = 0n;
  while (elapsed < budget) {
    for (let i = 0; i < 20; i++) fn(bytes);
    iterations += 20;
    elapsed = process.hrtime.bigint() - start;
  }
  const seconds = Number(elapsed) / 1e9;
  return { mbPerSec: (bytes.length * iterations) / seconds / 1e6, txPerSec: (txCount * iterations) / seconds };
}

const fmt = (r: Rate): string => `${r.mbPerSec.toFixed(1).padStart(7)} MB/s ${Math.round(r.txPerSec).toString().padStart(9)} tx/s`;

export function run(): void {
  console.log(`parse bench (${SECONDS}s per measurement, node ${process.version})`);
  const ratios: number[] = [];
  const ratiosWithIds: number[] = [];
  for (const c of CASES) {
    const hex = (JSON.parse(readFileSync(new URL(c.file, FIXTURES), 'utf8')) as { hex: string }).hex;
    const bytes = Buffer.from(hex, 'hex');
    const txCount = parseBlock(bytes, c.features).txs.length;
    const label = `${c.file.replace('.json', '')} (${bytes.length} B, ${txCount} tx)`;
    const ours = measure(bytes, txCount, (b) => parseBlock(b, c.features));
    console.log(`  ${label.padEnd(40)} outpoint        ${fmt(ours)}`);
    if (!c.bitcoinjs) continue;
    const theirs = measure(bytes, txCount, (b) => BitcoinjsBlock.fromBuffer(b));
    const theirsIds = measure(bytes, txCount, (b) => BitcoinjsBlock.fromBuffer(b).transactions!.map((t) => t.getId()));
    const ratio = ours.mbPerSec / theirs.mbPerSec;
    ratios.push(ratio);
    ratiosWithIds.push(ours.mbPerSec / theirsIds.mbPerSec);
    console.log(`  ${''.padEnd(40)} bitcoinjs       ${fmt(theirs)}`);
    console.log(`  ${''.padEnd(40)} bitcoinjs + ids ${fmt(theirsIds)}`);
    console.log(`  ${''.padEnd(40)} ratio outpoint/bitcoinjs ${ratio.toFixed(2)}x (vs bitcoinjs + ids ${(ours.mbPerSec / theirsIds.mbPerSec).toFixed(2)}x)`);
  }
  const geo = (xs: number[]): string => Math.exp(xs.reduce((s, r) => s + Math.log(r), 0) / xs.length).toFixed(2);
  console.log(`  geometric mean ratio outpoint/bitcoinjs: ${geo(ratiosWithIds)}x with txids on both sides, ${geo(ratios)}x vs bitcoinjs parse-only`);
}
