/**
 * Generates a synthetic chain into a cache directory once (see chain-generator.ts), or reuses one that is long
 * enough: a chain is a prefix of any longer chain of the same seed and shape, so one 20M-tx chain serves every size.
 *
 *   node --import tsx bench/scale/generate-chain.ts [--seed 1] [--txs 2000000] [--extra-blocks 300] [--block-txs 2000]
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { scriptToAddress } from '../../src/chains/addressing.js';
import { BlockFileWriter } from './block-files.js';
import { params } from './chain-params.js';
import { ByteSink } from './byte-sink.js';
import { ChainGenerator } from './chain-generator.js';
import type { StatsSummary } from './generator-stats.js';
import { BARE_MULTISIG, kindOf, KIND_NAMES, P2PK, writeOutputScript } from './script-kinds.js';

/** Bump when the generator's output changes: older caches are regenerated. */
export const GENERATOR_VERSION = 1;
export const CACHE_ROOT = fileURLToPath(new URL('../../.bench-cache', import.meta.url));

export interface ChainRequest {
  readonly seed: number;
  /** Mean transactions per block. */
  readonly blockTxs: number;
  /** The chain holds at least this many transactions... */
  readonly txs: number;
  /** ...and this many blocks after the one that reaches `txs`. */
  readonly extraBlocks: number;
}

export interface TrackedAddressInfo {
  readonly id: number;
  readonly kind: string;
  readonly address: string;
  /** [height, balance, received, txs] after every block that touched the address (satoshis). */
  readonly history: [number, number, number, number][];
}

export interface ChainMeta {
  readonly generatorVersion: number;
  readonly network: string;
  readonly seed: number;
  readonly blockTxs: number;
  readonly tipHeight: number;
  readonly txs: number;
  readonly bytes: number;
  readonly generateSeconds: number;
  readonly stats: Omit<StatsSummary, 'tracked'>;
  readonly tracked: TrackedAddressInfo[];
}

export const chainDir = (seed: number, blockTxs: number): string => join(CACHE_ROOT, `scale-${seed}-b${blockTxs}`);

export function readMeta(dir: string): ChainMeta | null {
  const path = join(dir, 'meta.json');
  if (!existsSync(path)) return null;
  const meta = JSON.parse(readFileSync(path, 'utf8')) as ChainMeta;
  return meta.generatorVersion === GENERATOR_VERSION ? meta : null;
}

/** Whether a generated chain satisfies the request (enough transactions, then enough blocks). */
function covers(meta: ChainMeta, dir: string, request: ChainRequest): boolean {
  if (meta.txs < request.txs) return false;
  const index = readFileSync(join(dir, 'index.bin'));
  for (let h = 0; h <= meta.tipHeight; h++) {
    if (index.readDoubleLE(h * 64 + 56) >= request.txs) return meta.tipHeight >= h + request.extraBlocks;
  }
  return false;
}

/** Address ids to track: the hottest addresses, and a few further down the power law, with an address form. */
function trackedIds(): number[] {
  const ids: number[] = [];
  const addressable = (id: number): boolean => kindOf(id) !== BARE_MULTISIG && kindOf(id) !== P2PK;
  for (let id = 0; ids.length < 4; id++) if (addressable(id)) ids.push(id);
  for (const from of [100, 1000, 10_000, 100_000]) {
    let id = from;
    while (!addressable(id)) id++;
    ids.push(id);
  }
  return ids;
}

function addressOf(id: number): string {
  const sink = new ByteSink(256);
  writeOutputScript(sink, id);
  return scriptToAddress(params, sink.buf.subarray(1, sink.pos)) ?? '';
}

/** The chain directory for the request, generating it first when the cache has no chain long enough. */
export function ensureChain(request: ChainRequest, log: (line: string) => void = console.log): string {
  const dir = chainDir(request.seed, request.blockTxs);
  const meta = readMeta(dir);
  if (meta && covers(meta, dir, request)) return dir;
  const tmp = `${dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  log(`  generating the chain (seed ${request.seed}, ~${request.blockTxs} txs/block) into ${dir}: ${request.txs} txs + ${request.extraBlocks} blocks`);
  const ids = trackedIds();
  const generator = new ChainGenerator(request.seed, { blockTxs: request.blockTxs }, ids);
  const writer = new BlockFileWriter(tmp);
  const started = performance.now();
  let txs = 0;
  let reachedAt = -1;
  let lastLog = started;
  for (;;) {
    const block = generator.next();
    writer.append(block);
    txs += block.txCount;
    if (reachedAt < 0 && txs >= request.txs) reachedAt = block.height;
    if (reachedAt >= 0 && block.height >= reachedAt + request.extraBlocks) break;
    if (performance.now() - lastLog > 30_000) {
      lastLog = performance.now();
      const seconds = (lastLog - started) / 1000;
      log(`  ... ${txs} txs, height ${block.height}, ${Math.round(txs / seconds)} tx/s, ${(writer.bytes / 2 ** 30).toFixed(2)} GiB`);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const { tracked, ...stats } = generator.stats.summary();
  const result: ChainMeta = {
    generatorVersion: GENERATOR_VERSION,
    network: `${params.id} ${params.chain}`,
    seed: request.seed,
    blockTxs: request.blockTxs,
    tipHeight: generator.tipHeight,
    txs,
    bytes: writer.bytes,
    generateSeconds: Math.round(seconds * 10) / 10,
    stats,
    tracked: tracked.map((t) => ({ id: t.id, kind: KIND_NAMES[kindOf(t.id)]!, address: addressOf(t.id), history: t.history })),
  };
  writer.close(result);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  log(`  generated ${txs} txs in ${generator.tipHeight + 1} blocks in ${seconds.toFixed(0)} s (${Math.round(txs / seconds)} tx/s), ` +
    `${(writer.bytes / 2 ** 30).toFixed(2)} GiB of blocks (${Math.round(writer.bytes / txs)} B/tx)`);
  return dir;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '1' },
      txs: { type: 'string', default: '2000000' },
      'extra-blocks': { type: 'string', default: '300' },
      'block-txs': { type: 'string', default: '2000' },
    },
  });
  const dir = ensureChain({ seed: Number(values.seed), txs: Number(values.txs), extraBlocks: Number(values['extra-blocks']), blockTxs: Number(values['block-txs']) });
  const meta = readMeta(dir)!;
  console.log(JSON.stringify({ dir, ...meta, tracked: meta.tracked.map((t) => ({ id: t.id, kind: t.kind, address: t.address })) }, null, 1));
}
