/** Indexers on both store engines following one regtest node, synced in lockstep by the test. */
import { after, before } from 'node:test';
import { MemoryEventBus, silentLogger, type DomainEvent, type NetworkStore } from '../../src/core/index.js';
import type { NetworkParams } from '../../src/chains/network-params.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import type { NodeClient } from '../../src/node/rpc/node-client.js';
import { assertAddressesMatchNode, assertTipAndMempoolMatchNode, type OracleNode } from './node-oracle.js';
import type { RegtestNode } from './regtest-node.js';

/** A node the harness can index and check: a real regtest daemon or the Dogecoin Core 1.14 stand-in. */
export interface HarnessNode extends OracleNode {
  readonly node: NodeClient;
  stop(): Promise<void>;
}
import { StoreEngines, testEngines, type TestStore } from './store-engines.js';

export interface IndexedEngine {
  readonly test: TestStore;
  readonly store: NetworkStore;
  readonly indexer: NetworkIndexer;
  readonly events: DomainEvent[];
  /** Shared by the engines of one harness: syncAll sets it once per round, so both record the same first-seen times. */
  readonly clock: { seconds: number };
}

export async function indexersOnBothEngines(engines: StoreEngines, node: HarnessNode, params: NetworkParams): Promise<IndexedEngine[]> {
  const result: IndexedEngine[] = [];
  const clock = { seconds: Math.floor(Date.now() / 1000) };
  for (const engine of testEngines()) {
    const test = await engines.create(engine);
    const store = test.store.network(params.id);
    const bus = new MemoryEventBus();
    const events: DomainEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const indexer = new NetworkIndexer({ params, source: new RpcChainSource(node.node), store, bus, logger: silentLogger, now: () => clock.seconds });
    result.push({ test, store, indexer, events, clock });
  }
  return result;
}

/**
 * One full sync pass on every engine, repeated while a pass reports unfinished work: txs waiting for a parent (a few
 * times), or more new mempool txs than one pass takes (until they are all in).
 */
export async function syncAll(indexed: readonly IndexedEngine[]): Promise<void> {
  for (const e of indexed) e.clock.seconds = Math.floor(Date.now() / 1000);
  for (const e of indexed) {
    for (let retries = 0; retries < 5; ) {
      const { incomplete, more } = await e.indexer.syncOnce();
      if (more) continue;
      if (!incomplete) break;
      retries++;
    }
  }
}

/** A regtest node followed by indexers on both engines, checked against the node after every sync. */
export class IndexedRegtest<N extends HarnessNode = RegtestNode> {
  /** Addresses whose balance and UTXOs `check` compares with the node's UTXO set. */
  readonly watched: string[] = [];

  private constructor(
    readonly node: N,
    readonly params: NetworkParams,
    private readonly engines: StoreEngines,
    readonly indexed: IndexedEngine[],
  ) {}

  static async start<N extends HarnessNode>(params: NetworkParams, startNode: () => Promise<N>): Promise<IndexedRegtest<N>> {
    const node = await startNode();
    const engines = new StoreEngines();
    return new IndexedRegtest(node, params, engines, await indexersOnBothEngines(engines, node, params));
  }

  /** Syncs every engine, then: tip and mempool equal the node's; watched addresses equal its UTXO set and its history. */
  async check(label: string): Promise<void> {
    await syncAll(this.indexed);
    for (const e of this.indexed) {
      await assertTipAndMempoolMatchNode(this.node, e.store, `${label} [${e.test.engine}]`);
      await assertAddressesMatchNode(this.node, this.params, e.store, this.watched, `${label} [${e.test.engine}]`);
    }
  }

  async close(): Promise<void> {
    await this.node.stop();
    await this.engines.close();
  }
}

/**
 * Registers before/after hooks that start an IndexedRegtest for the test file and close it;
 * `ready` receives it once started. Returns a getter for tests to reach it.
 */
export function useIndexedRegtest<N extends HarnessNode = RegtestNode>(
  params: NetworkParams,
  startNode: () => Promise<N>,
  ready: (env: IndexedRegtest<N>) => void = () => undefined,
): () => IndexedRegtest<N> {
  let env: IndexedRegtest<N> | undefined;
  before(async () => {
    env = await IndexedRegtest.start(params, startNode);
    ready(env);
  });
  after(async () => {
    await env?.close();
  });
  return () => {
    if (!env) throw new Error('IndexedRegtest not started');
    return env;
  };
}
