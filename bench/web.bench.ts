/**
 * Explorer pages beside the v2 JSON they show, on the same server in the same run (autocannon, 32 connections,
 * BENCH_SECONDS per pair and side, default 10, in 4 alternating slices): `/` vs get_info, a tx page vs v2 tx, a block page vs v2 block, the page of
 * the address with the longest history (1,000+ txs) vs v2 address, and that address's history 1,000 txs deep by
 * cursor (no cap: it costs what the first page costs). Pages rotate over 2,000 txids and every block. Chain:
 * bench/bench-chain.ts. Target: each page at least 50 % of its JSON route's req/s (printed as a ratio).
 */
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { addressToScript } from '../src/chains/addressing.js';
import { silentLogger } from '../src/core/index.js';
import { buildHttpApp, rateCounters } from '../src/main/wiring/http-wiring.js';
import { DEFAULT_ASSET_DIR } from '../src/web/shell/asset-manifest.js';
import { explorerModule } from '../src/web/explorer/explorer-module.js';
import { createWeb } from '../src/web/register-web.js';
import { WebAssets } from '../src/web/shell/assets.js';
import { benchAppDeps, benchChain, benchParams, NTX } from './bench-chain.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CONNECTIONS = 32;
/** Each pair runs in alternating slices (HTML, JSON, HTML, …): load from elsewhere hits both sides alike. */
const SLICES = 4;

interface Side {
  requests: number;
  seconds: number;
  failed: number;
  p99: number;
}

async function slice(url: string, paths: readonly string[], headers: Record<string, string>, side: Side): Promise<void> {
  let i = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS / SLICES,
    headers,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) }],
  });
  side.requests += result.requests.total;
  side.seconds += SECONDS / SLICES;
  side.failed += result.non2xx + result.errors + result.timeouts;
  side.p99 = Math.max(side.p99, result.latency.p99);
}

function report(label: string, side: Side): number {
  const rps = side.requests / side.seconds;
  console.log(`${label.padEnd(48)} ${rps.toFixed(0).padStart(7)} req/s   p99 ${String(side.p99).padStart(5)} ms${side.failed ? `   (${side.failed} failed)` : ''}`);
  return rps;
}

/** HTML page(s) and JSON route(s) measured in alternating slices; returns HTML req/s over JSON req/s. */
async function pair(url: string, page: [string, readonly string[]], json: [string, readonly string[]], headers: Record<string, string> = {}): Promise<number> {
  const html: Side = { requests: 0, seconds: 0, failed: 0, p99: 0 };
  const api: Side = { requests: 0, seconds: 0, failed: 0, p99: 0 };
  for (let k = 0; k < SLICES; k++) {
    await slice(url, page[1], headers, html);
    await slice(url, json[1], headers, api);
  }
  return report(`HTML ${page[0]}`, html) / report(`JSON ${json[0]}`, api);
}

export async function run(): Promise<void> {
  const chain = await benchChain();
  const { network, hot, txids, blocks, close } = chain;
  try {
    const deep = await network.getAddressHistory(addressToScript(benchParams, hot.address), { direction: 'desc', limit: 1, offset: 1_000, includeMempool: false });
    const web = createWeb(
      { publicUrl: 'http://127.0.0.1', realtimeKey: 'bench', rateLimitPerSecond: 0, rateCounters: rateCounters(null), logger: silentLogger, assets: WebAssets.load(DEFAULT_ASSET_DIR) },
      [explorerModule],
    );
    // A full day of mempool samples a minute apart (the default rate): the mempool page draws 288 of the 1,440.
    const samples = chain.store.mempoolSamples();
    const now = Math.floor(Date.now() / 1000);
    await samples.prune('LTCTEST', now + 1);
    for (let i = 0; i < 1_440; i++) await samples.sample('LTCTEST', now - 86_400 + 60 * (i + 1));
    const app = await buildHttpApp({ ...benchAppDeps(chain), mempoolSamples: samples, extensions: [web] });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      console.log(`web bench: ${NTX} txs, ${CONNECTIONS} connections, ${SECONDS} s each, ${cpus().length} cores (${cpus()[0]?.model ?? '?'})`);
      const pairs: [string, readonly string[], string, readonly string[]][] = [
        ['/ (home)', ['/'], 'v2 get_info', ['/api/v2/get_info/LTCTEST']],
        ['tx page', txids.map((t) => `/ltctest/tx/${t}`), 'v2 tx (display data)', txids.map((t) => `/api/v2/tx/LTCTEST/${t}`)],
        ['block page', blocks.map((b) => `/ltctest/block/${b}`), 'v2 block (display data)', blocks.map((b) => `/api/v2/block/LTCTEST/${b}`)],
        [`address page (${hot.txs} txs)`, [`/ltctest/address/${hot.address}`], 'v2 address (display data)', [`/api/v2/address/LTCTEST/${hot.address}`]],
        ['mempool page', ['/ltctest/mempool'], 'v2 get_info (its unconfirmed count)', ['/api/v2/get_info/LTCTEST']],
      ];
      if (deep[0]) pairs.push([`address page 1,000 txs deep (cursor)`, [`/ltctest/address/${hot.address}?older=${deep[0].txid}`], 'v2 address (display data)', [`/api/v2/address/LTCTEST/${hot.address}`]]);
      const ratios: string[] = [];
      for (const [pageLabel, pagePaths, jsonLabel, jsonPaths] of pairs) {
        const ratio = await pair(base, [pageLabel, pagePaths], [jsonLabel, jsonPaths]);
        ratios.push(`${pageLabel}: ${(ratio * 100).toFixed(0)} % of its JSON route`);
      }
      // What browsers get: pages compressed per request (brotli 2), JSON as the API sends it (uncompressed).
      const compressed = await pair(base, ['tx page, Accept-Encoding: br', pairs[1]![1]], ['v2 tx (display data), same header', pairs[1]![3]], { 'accept-encoding': 'br, gzip' });
      ratios.push(`tx page compressed with brotli: ${(compressed * 100).toFixed(0)} % of its JSON route`);
      for (const line of ratios) console.log(line);
    } finally {
      await app.close();
    }
  } finally {
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
