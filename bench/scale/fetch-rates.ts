/**
 * How fast blocks can come from the stand-in node, to show it is not what limits the indexer: its serving rate alone
 * (getblock requests as the indexer's fetcher sends them, 4 in flight, bodies read and dropped) and the indexer's
 * fetch-and-parse ceiling (the real BlockFetcher: hex decoding, parsing, txids; nothing written).
 */
import http from 'node:http';
import { BlockFetcher } from '../../src/indexer/block-fetcher.js';
import { NodeClient } from '../../src/node/rpc/node-client.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { RpcClient } from '../../src/node/rpc/rpc-client.js';
import type { ChainFiles } from './block-files.js';
import { params } from './chain-params.js';

export interface FetchRate {
  readonly seconds: number;
  readonly blocks: number;
  readonly txs: number;
  /** Raw block bytes (the wire carried twice as many, as hex). */
  readonly bytes: number;
}

/** getblock <hash> 0 for heights 0..toHeight, `parallel` requests in flight, each for as many blocks as ~1000 txs. */
export async function servingRate(rpcUrl: string, chain: ChainFiles, toHeight: number, parallel = 4): Promise<FetchRate> {
  const url = new URL(rpcUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: parallel });
  const auth = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  const perRequest = Math.max(1, Math.round(1000 / Math.max(1, chain.txsThrough(toHeight) / (toHeight + 1))));
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next <= toHeight) {
      const from = next;
      next = Math.min(toHeight + 1, next + perRequest);
      const body = JSON.stringify(Array.from({ length: next - from }, (_, i) => ({ jsonrpc: '1.0', id: i, method: 'getblock', params: [chain.hashAt(from + i), 0] })));
      await new Promise<void>((resolve, reject) => {
        const req = http.request({ agent, host: url.hostname, port: url.port, method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' } }, (res) => {
          res.on('data', () => undefined);
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      });
    }
  };
  await Promise.all(Array.from({ length: parallel }, () => worker()));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  let bytes = 0;
  for (let h = 0; h <= toHeight; h++) bytes += chain.size(h);
  return { seconds, blocks: toHeight + 1, txs: chain.txsThrough(toHeight), bytes };
}

/** The indexer's own fetcher and batch sizes over heights 0..toHeight, one batch after another, writing nothing. */
export async function fetchParseCeiling(rpcUrl: string, toHeight: number): Promise<FetchRate> {
  const rpc = new RpcClient({ url: rpcUrl });
  const fetcher = new BlockFetcher(new RpcChainSource(new NodeClient(rpc)), params.features);
  const started = performance.now();
  let next = 0;
  let txs = 0;
  let bytes = 0;
  while (next <= toHeight) {
    const batch = await fetcher.fetch(next, fetcher.nextCount(toHeight - next + 1));
    for (const block of batch.blocks) txs += block.txs.length;
    bytes += batch.bytes;
    next += batch.blocks.length;
  }
  const seconds = (performance.now() - started) / 1000;
  rpc.close();
  return { seconds, blocks: next, txs, bytes };
}
