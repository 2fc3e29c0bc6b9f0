/**
 * v3 over a real litecoind regtest node, indexed on SQLite and PostgreSQL: one app per engine, each with
 * the same plan, account and key inserted in its own store, so one API-KEY works on both and `getBoth`
 * can demand identical answers.
 */
import type { FastifyInstance } from 'fastify';
import { noPrices, silentLogger, type AccountStore, type NetworkId, type NetworkReader } from '../../src/core/index.js';
import { buildHttpApp, type HttpWiring } from '../../src/main/wiring/http-wiring.js';
import { RpcBroadcaster } from '../../src/node/rpc-broadcaster.js';
import { RpcFeeSource } from '../../src/node/rpc-fee-source.js';
import { RpcMempoolSource } from '../../src/node/rpc-mempool-source.js';
import { generateApiKey } from '../../src/services/accounts/api-keys.js';
import type { NetworkParams } from '../../src/chains/addressing.js';
import { indexersOnBothEngines, type HarnessNode, type IndexedEngine } from '../helpers/indexer-harness.js';
import { startLitecoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines } from '../helpers/store-engines.js';
import { params, type Reply } from './v2-fixture.js';

export { params };

/** A v3 app over one reader and one account store. */
/** Without a node: nothing to broadcast to, the mempool projection reads the index and fee estimates have no node part. */
export async function v3App(
  node: HarnessNode | null,
  reader: NetworkReader,
  accounts: AccountStore,
  extra: Partial<HttpWiring> = {},
  network: NetworkParams = params,
): Promise<FastifyInstance> {
  return buildHttpApp({
    networks: new Map<NetworkId, { params: NetworkParams; reader: NetworkReader }>([[network.id, { params: network, reader }]]),
    prices: noPrices,
    broadcaster: node ? new RpcBroadcaster(new Map([[network.id, node.rpc]])) : { broadcast: () => Promise.reject(new Error('no node')) },
    publicUrl: 'https://outpoint.test',
    rateLimitPerSecond: 0,
    redisUrl: null,
    logger: silentLogger,
    shortLinks: { shortFor: () => Promise.reject(new Error('unused')), addressFor: () => Promise.resolve(null), findShort: () => Promise.resolve(null) },
    accounts,
    mempoolSources: node ? new Map([[network.id, new RpcMempoolSource(node.node)]]) : new Map(),
    feeSources: node ? new Map([[network.id, new RpcFeeSource(node.node)]]) : new Map(),
    v3Timing: { keyCacheMs: 0, usageFlushMs: 100, mempoolMaxAgeMs: 200 },
    ...extra,
  });
}

/** The same plan, account and key in every given store (ids line up on fresh stores). */
export async function sameAccountIn(stores: readonly AccountStore[], email: string, plan: string, maxDaily: number): Promise<{ key: string; accountId: number }> {
  const key = generateApiKey();
  let accountId = 0;
  for (const store of stores) {
    await store.setPlan(plan, maxDaily, 1);
    const account = (await store.findAccountByEmail(email)) ?? (await store.createAccount({ email, plan, createdAt: 1, periodEndsAt: 4_000_000_000, willRenew: true }));
    await store.addKey({ accountId: account.id, prefix: key.prefix, hash: key.hash, createdAt: 1 });
    accountId = account.id;
  }
  return { key: key.key, accountId };
}

export async function call(app: FastifyInstance, url: string, key: string | null, method: 'GET' | 'POST' = 'GET', payload?: unknown): Promise<Reply> {
  const res = await app.inject({
    method,
    url,
    headers: { ...(key === null ? {} : { 'api-key': key }), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
  return { status: res.statusCode, headers: res.headers, body: JSON.parse(res.body) };
}

/**
 * Each engine's indexer saw mempool txs at its own clock second: unconfirmed items' times may differ by that;
 * each app computes its mempool projection on its own, so `updated_at` (when it did) differs too.
 */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  const unconfirmed = o.block === null || o.block_hash === null;
  return Object.fromEntries(
    Object.entries(o)
      .filter(([k]) => !(unconfirmed && k === 'time') && k !== 'updated_at')
      .map(([k, v]) => [k, comparable(v)]),
  );
}

export async function callBoth(apps: readonly FastifyInstance[], url: string, key: string): Promise<Reply> {
  const replies = await Promise.all(apps.map((a) => call(a, url, key)));
  for (const r of replies.slice(1)) {
    if (JSON.stringify(comparable(r.body)) !== JSON.stringify(comparable(replies[0]!.body)) || r.status !== replies[0]!.status) {
      throw new Error(`engines disagree on ${url}:\n${JSON.stringify(replies[0]!.body).slice(0, 800)}\n${JSON.stringify(r.body).slice(0, 800)}`);
    }
  }
  return replies[0]!;
}

export interface V3Chain {
  readonly node: RegtestNode;
  readonly engines: StoreEngines;
  readonly indexed: IndexedEngine[];
  readonly apps: FastifyInstance[];
  /** Of an account on a plan of a million requests a day, the same in both stores. */
  readonly key: string;
  stop(): Promise<void>;
}

/**
 * `node` (already started; stopped by `stop`) indexed on SQLite and PostgreSQL as `network`, with a v3 app per engine
 * and one API key valid on both. `prepare` runs before it is returned; a failure anywhere stops everything.
 */
export async function v3ChainOn(node: RegtestNode, network: NetworkParams, prepare: (chain: V3Chain) => Promise<void> = async () => undefined): Promise<V3Chain> {
  const engines = new StoreEngines();
  const apps: FastifyInstance[] = [];
  const stop = async (): Promise<void> => {
    for (const app of apps) await app.close();
    await node.stop();
    await engines.close();
  };
  try {
    const indexed = await indexersOnBothEngines(engines, node, network);
    const { key } = await sameAccountIn(indexed.map((e) => e.test.store.accounts()), 'e2e@x.io', 'e2e', 1_000_000);
    apps.push(...(await Promise.all(indexed.map((e) => v3App(node, e.store, e.test.store.accounts(), {}, network)))));
    const chain = { node, engines, indexed, apps, key, stop };
    await prepare(chain);
    return chain;
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * litecoind regtest indexed on SQLite and PostgreSQL with a v3 app per engine, and 60 confirmed wallet coins of 0.5,
 * so that many wallet sends can follow without chaining unconfirmed change past the mempool's limits.
 */
export async function startV3Chain(): Promise<V3Chain> {
  return v3ChainOn(await startLitecoind({ funded: true }), params, async ({ node }) => {
    await node.mine(10);
    const fan: Record<string, string> = {};
    for (let i = 0; i < 60; i++) fan[await node.newAddress('bech32')] = '0.5';
    await node.wallet.call('sendmany', ['', fan]);
    await node.mine(1);
  });
}
