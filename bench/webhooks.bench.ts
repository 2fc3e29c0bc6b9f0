/**
 * Webhook throughput (issue 32): 10,000 hooks watching addresses, one block touching 2,000 of them, every delivery made
 * to a local receiver. litecoind -regtest pays the 2,000 addresses in one transaction (sendmany), then mines it; the
 * indexer (SQLite), the matcher, the dispatcher and the HTTP sender run in this process as `outpoint serve` wires them.
 * Measured: from the send to the last of the 2,000 first-seen deliveries, from the mined block to the last of the 2,000
 * confirmation deliveries, and the process's RSS and heap before, during and after.
 * Env: BENCH_WH_HOOKS (10000), BENCH_WH_TOUCHED (2000).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MemoryEventBus, silentLogger, type WebhookSpec } from '../src/core/index.js';
import { addressToScript, getNetworkParams } from '../src/chains/addressing.js';
import { NetworkIndexer } from '../src/indexer/network-indexer.js';
import { PollNotifier } from '../src/node/notifiers/poll-notifier.js';
import { RpcChainSource } from '../src/node/rpc-chain-source.js';
import { addressKey } from '../src/services/events/catalogue/event-channels.js';
import { tappedBus } from '../src/services/webhooks/tapped-bus.js';
import { WebhookDispatcher } from '../src/services/webhooks/webhook-dispatcher.js';
import { WebhookIndex } from '../src/services/webhooks/webhook-index.js';
import { WebhookLimits } from '../src/services/webhooks/webhook-limits.js';
import { WebhookMatcher } from '../src/services/webhooks/webhook-matcher.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { WebhookHttpSender } from '../src/webhooks-http/webhook-http-sender.js';
import { startLitecoind, waitFor } from '../test/helpers/regtest-node.js';

const HOOKS = Number(process.env['BENCH_WH_HOOKS'] ?? 10_000);
const TOUCHED = Number(process.env['BENCH_WH_TOUCHED'] ?? 2_000);
const MiB = (n: number): string => `${(n / 2 ** 20).toFixed(0)} MiB`;

async function run(): Promise<void> {
  console.log(`webhooks bench: ${HOOKS} address hooks, a block touching ${TOUCHED} of them (node ${process.version})`);
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-wh-bench-'));
  const node = await startLitecoind({ funded: true });
  const store = new SqliteStore({ path: join(dir, 'bench.db') });
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const received = new Map<string, number>();
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.set(String(req.headers['x-outpoint-delivery']), performance.now());
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    await store.migrate();
    const params = getNetworkParams('LTCTEST', 'regtest');
    await store.accounts().setPlan('bench', 1_000_000, 1);
    const account = await store.accounts().createAccount({ email: 'bench@example.com', plan: 'bench', createdAt: 1, periodEndsAt: 2, willRenew: true });
    const hooks = store.webhooks();
    const paid: string[] = [];
    const t0 = performance.now();
    for (let i = 0; i < HOOKS; i++) {
      const address = i < TOUCHED ? await node.newAddress('bech32') : `unpaid-${i}`;
      const script = i < TOUCHED ? addressKey(addressToScript(params, address)) : `0014${randomBytes(20).toString('hex')}`;
      if (i < TOUCHED) paid.push(address);
      const spec: WebhookSpec = { accountId: account.id, network: 'LTCTEST', event: 'address', url, secret: 'bench-secret', address, script, txid: null, confirmations: null };
      await hooks.create(spec, 1, HOOKS + 1);
    }
    console.log(`  setup: ${HOOKS} hooks stored in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const bus = new MemoryEventBus();
    const sender = new WebhookHttpSender({ allowPrivateTargets: true });
    const dispatcher = new WebhookDispatcher(hooks, sender, { concurrency: 64, retryHours: 24, leaseMs: 30_000, idleMs: 200 }, silentLogger);
    const index = new WebhookIndex(hooks, ['LTCTEST'], 2000);
    const matcher = new WebhookMatcher(hooks, index, new Map([['LTCTEST', store.network('LTCTEST')]]), store.accounts(),
      new WebhookLimits({ maxHooks: HOOKS, deliveriesPerDay: 1_000_000 }, []), () => dispatcher.poke(), silentLogger);
    const indexer = new NetworkIndexer({ params, source: new RpcChainSource(node.node), store: store.network('LTCTEST'), bus: tappedBus(bus, matcher), logger: silentLogger });
    const notifier = new PollNotifier(node.node, { pollMs: 25 });
    notifier.on('tip', () => indexer.poke());
    notifier.on('mempool', () => indexer.poke());
    indexer.start();
    await notifier.start();
    dispatcher.start();
    await waitFor(() => indexer.isCaughtUp, 60_000, 'indexer caught up');
    global.gc?.();
    const before = process.memoryUsage();
    peakRss = before.rss;

    const sent = performance.now();
    await node.wallet.call('sendmany', ['', Object.fromEntries(paid.map((a) => [a, 0.001]))]);
    await waitFor(() => received.size >= TOUCHED, 120_000, 'first-seen deliveries');
    const firstSeen = Math.max(...received.values()) - sent;
    const afterFirst = received.size;
    const mined = performance.now();
    await node.mine(1);
    await waitFor(() => received.size >= afterFirst + TOUCHED, 120_000, 'confirmation deliveries');
    const confirmedMs = Math.max(...received.values()) - mined;
    const during = peakRss;
    global.gc?.();
    const after = process.memoryUsage();
    console.log(`  first seen (mempool): ${TOUCHED} deliveries, the last ${(firstSeen / 1000).toFixed(2)} s after sendmany returned`);
    console.log(`  confirmed (block): ${TOUCHED} deliveries, the last ${(confirmedMs / 1000).toFixed(2)} s after generatetoaddress returned`);
    console.log(`  memory: RSS ${MiB(before.rss)} before, peak ${MiB(during)}, ${MiB(after.rss)} after; heap ${MiB(before.heapUsed)} -> ${MiB(after.heapUsed)}`);
    console.log(`  machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    await notifier.stop();
    await indexer.stop();
    await matcher.drain();
    await dispatcher.stop();
  } finally {
    clearInterval(sampler);
    await new Promise((resolve) => receiver.close(resolve));
    await store.close();
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
