/**
 * The indexer waits for its events to be taken up before it writes the next batch (core EventBus.absorbed): what
 * queues behind it (the event log's writes, webhook matching) bounds a catch-up's memory instead of growing with it.
 * A real bitcoind, both engines: three blocks caught up one batch at a time, with the bus holding the indexer back.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { getNetworkParams } from '../../src/chains/networks.js';
import { MemoryEventBus, silentLogger, type DomainEvent, type EventBus } from '../../src/core/index.js';
import { NetworkIndexer } from '../../src/indexer/network-indexer.js';
import { RpcChainSource } from '../../src/node/rpc-chain-source.js';
import { startBitcoind, type RegtestNode } from '../helpers/regtest-node.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';
import { waitFor } from '../helpers/wait-for.js';

const params = getNetworkParams('BTCTEST', 'regtest');

/** A bus whose absorbed() stays pending until the test lets the publisher go. */
class HoldingBus implements EventBus {
  private readonly inner = new MemoryEventBus();
  readonly published: DomainEvent[] = [];
  holding = false;
  waits = 0;
  private release: (() => void) | null = null;

  publish(event: DomainEvent): void {
    this.published.push(event);
    this.inner.publish(event);
  }
  subscribe(handler: (event: DomainEvent) => void): () => void {
    return this.inner.subscribe(handler);
  }
  absorbed(): Promise<void> {
    if (!this.holding) return Promise.resolve();
    this.waits++;
    return new Promise((resolve) => (this.release = resolve));
  }
  letGo(): void {
    const release = this.release;
    this.release = null;
    release?.();
  }
}

describe('indexer back-pressure', () => {
  const engines = new StoreEngines();
  let node: RegtestNode;
  before(async () => (node = await startBitcoind({ funded: true })));
  after(async () => {
    await node?.stop();
    await engines.close();
  });

  for (const engine of testEngines()) {
    it(`(${engine}) writes no further batch while the bus holds it back, and finishes once let go`, async () => {
      const test = await engines.create(engine);
      const store = test.store.network(params.id);
      const bus = new HoldingBus();
      // One block per batch, so that "the next batch" is the next block.
      const indexer = new NetworkIndexer({ params, source: new RpcChainSource(node.node), store, bus, logger: silentLogger, batchTxTarget: 1 });
      await indexer.syncOnce();
      const start = (await store.getTip())!.height;
      await node.send(await node.newAddress('bech32'), '0.5');
      await node.mine(3);
      bus.holding = true;
      bus.published.length = 0;
      let finished = false;
      const run = indexer.syncOnce().then(() => (finished = true));
      await waitFor(() => bus.waits === 1, 10_000, 'the indexer waits after its first batch');
      // Held: the second block is not written however long the bus takes.
      await sleep(300);
      assert.equal((await store.getTip())!.height, start + 1, 'one batch written while held');
      assert.equal(finished, false);
      const connected = (): number[] => bus.published.flatMap((e) => (e.kind === 'block_connected' ? [e.height] : []));
      assert.deepEqual(connected(), [start + 1], 'the held batch was announced before the wait');
      bus.letGo();
      await waitFor(() => bus.waits === 2, 10_000, 'the second batch written, then held');
      assert.equal((await store.getTip())!.height, start + 2);
      bus.letGo();
      await waitFor(() => bus.waits === 3, 10_000, 'the third batch written, then held');
      bus.letGo();
      await run;
      assert.equal((await store.getTip())!.height, start + 3);
      assert.deepEqual(connected(), [start + 1, start + 2, start + 3]);
      assert.ok(bus.published.some((e) => e.kind === 'address_touched' && e.confirmed), 'the blocks\' addresses announced too');
    });
  }
});
