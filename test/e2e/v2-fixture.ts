/**
 * The v2 API over a real litecoind regtest node, indexed on SQLite and PostgreSQL, one HTTP app per
 * engine: every check runs against both and the two must answer identically.
 */
import type { FastifyInstance } from 'fastify';
import { getNetworkParams, type NetworkParams } from '../../src/chains/addressing.js';
import { noPrices, silentLogger, type NetworkId } from '../../src/core/index.js';
import { buildHttpApp, type HttpWiring } from '../../src/main/wiring/http-wiring.js';
import { RpcBroadcaster } from '../../src/node/rpc-broadcaster.js';
import { indexersOnBothEngines, syncAll, type HarnessNode, type IndexedEngine } from '../helpers/indexer-harness.js';
import type { StoreEngines } from '../helpers/store-engines.js';

export const params = getNetworkParams('LTCTEST', 'regtest');
/** Confidence depends on the clock; the tests pin it. */
export const FIXED_NOW = 2_000_000_000;

export interface EngineApp {
  readonly engine: string;
  readonly indexed: IndexedEngine;
  readonly app: FastifyInstance;
}

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, unknown>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are checked field by field
  readonly body: any;
}

/** `network`: the params the apps serve (default LTCTEST regtest, the litecoind suites'). */
export async function appsOnBothEngines(engines: StoreEngines, node: HarnessNode, extra: Partial<HttpWiring> = {}, network: NetworkParams = params): Promise<EngineApp[]> {
  const indexed = await indexersOnBothEngines(engines, node, network);
  const result: EngineApp[] = [];
  for (const e of indexed) {
    const app = await buildHttpApp({
      networks: new Map<NetworkId, { params: NetworkParams; reader: typeof e.store }>([[network.id, { params: network, reader: e.store }]]),
      prices: noPrices,
      broadcaster: new RpcBroadcaster(new Map([[network.id, node.rpc]])),
      publicUrl: 'https://outpoint.test',
      rateLimitPerSecond: 0,
      redisUrl: null,
      logger: silentLogger,
      shortLinks: e.test.store.shortAddresses(),
      now: () => FIXED_NOW,
      ...extra,
    });
    result.push({ engine: e.test.engine, indexed: e, app });
  }
  return result;
}

export async function sync(apps: readonly EngineApp[]): Promise<void> {
  await syncAll(apps.map((a) => a.indexed));
}

export async function get(app: FastifyInstance, url: string): Promise<Reply> {
  const res = await app.inject({ method: 'GET', url });
  const text = res.body;
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // JSONP and other non-JSON bodies stay text
  }
  return { status: res.statusCode, headers: res.headers, body };
}

/** Every engine answers the same; returns that answer. */
export async function getBoth(apps: readonly EngineApp[], url: string): Promise<Reply> {
  const replies = await Promise.all(apps.map((a) => get(a.app, url)));
  for (const r of replies.slice(1)) {
    if (JSON.stringify(r.body) !== JSON.stringify(replies[0]!.body) || r.status !== replies[0]!.status) {
      throw new Error(`engines disagree on ${url}:\n${apps[0]!.engine}: ${replies[0]!.status} ${JSON.stringify(replies[0]!.body).slice(0, 600)}\n` +
        `${apps[1]!.engine}: ${r.status} ${JSON.stringify(r.body).slice(0, 600)}`);
    }
  }
  return replies[0]!;
}

/** POSTs to every engine's app; returns each status and JSON body. */
export async function postBoth(apps: readonly EngineApp[], url: string, payload: string, contentType: string): Promise<Reply[]> {
  const out: Reply[] = [];
  for (const a of apps) {
    const res = await a.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType } });
    out.push({ status: res.statusCode, headers: res.headers, body: JSON.parse(res.body) });
  }
  return out;
}
