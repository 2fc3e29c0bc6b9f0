import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { test } from 'node:test';
import type { BlockHeaderRecord, MempoolInfo } from '../../core/store/chain-reads.js';
import type { ChainTip } from '../../core/domain/chain-types.js';
import type { SyncStatus } from '../../core/domain/sync-status.js';
import { PromMetrics } from '../../metrics/prom-metrics.js';
import { registerHealthMetrics } from './health-metrics.js';
import { HealthMonitor, type NetworkProbes } from './health-monitor.js';

/** A node and an index whose answers the test sets; `hang` makes the node accept calls it never answers. */
class Fakes {
  nodeHeight = 100;
  nodeFails: Error | null = null;
  hang = false;
  tip: ChainTip | null = { height: 100, hash: 'aa'.repeat(32) };
  indexFails: Error | null = null;
  sync: SyncStatus | null = null;
  blockReads = 0;
  mempool: MempoolInfo = { count: 7, bytes: 2_000, vbytes: 1_500 };

  probes(id: NetworkProbes['id'] = 'LTCTEST'): NetworkProbes {
    return {
      id,
      node: {
        getBlockCount: () => {
          if (this.hang) return new Promise<number>(() => undefined);
          return this.nodeFails ? Promise.reject(this.nodeFails) : Promise.resolve(this.nodeHeight);
        },
      },
      index: {
        getTip: () => (this.indexFails ? Promise.reject(this.indexFails) : Promise.resolve(this.tip)),
        getMempoolInfo: () => Promise.resolve(this.mempool),
        getBlockHeaders: (height: number) => {
          this.blockReads++;
          return Promise.resolve([{ height, hash: this.tip?.hash, time: 1_700_000_000 } as unknown as BlockHeaderRecord]);
        },
      },
      syncStatus: () => Promise.resolve(this.sync),
    };
  }
}

function monitor(fakes: Fakes, options: { timeoutMs?: number; maxLagBlocks?: number } = {}): HealthMonitor {
  return new HealthMonitor(() => Promise.resolve(1), [fakes.probes()], { maxLagBlocks: options.maxLagBlocks ?? 3, intervalMs: 60_000, timeoutMs: options.timeoutMs ?? 1_000 });
}

void test('before the first answer a network is starting; then ready while the index is at most max_lag_blocks behind', async () => {
  const fakes = new Fakes();
  const m = monitor(fakes);
  assert.equal(m.readiness('LTCTEST')!.reason, 'starting');
  await m.checkAll();
  assert.deepEqual(
    { ...m.readiness('LTCTEST')!, nodeAnsweredAt: null },
    {
      network: 'LTCTEST', ready: true, reason: null, message: null, detail: null, indexHeight: 100, nodeHeight: 100, lagBlocks: 0, maxLagBlocks: 3,
      syncPhase: 'ready', syncEtaSeconds: 0, nodeError: null, nodeAnsweredAt: null,
    },
  );
  fakes.nodeHeight = 103;
  await m.checkAll();
  assert.equal(m.readiness('LTCTEST')!.ready, true, '3 behind is allowed with max_lag_blocks = 3');
  fakes.nodeHeight = 104;
  await m.checkAll();
  const lagging = m.readiness('LTCTEST')!;
  assert.equal(lagging.ready, false);
  assert.equal(lagging.reason, 'index_lagging');
  assert.equal(lagging.lagBlocks, 4);
  assert.match(lagging.message!, /4 blocks behind the node's 104 \(at most 3 allowed\)/);
  assert.equal(m.readiness('BTC'), null, 'an unconfigured network has no readiness');
});

void test('an index without any block says so instead of counting one block more than the node has', async () => {
  const fakes = new Fakes();
  // A store whose status says ready before its first block (e.g. a fresh store the start-up check reads).
  fakes.tip = null;
  fakes.sync = { phase: 'ready', height: null, targetHeight: 111, etaSeconds: 0, updatedAt: 1_700_000_000 };
  fakes.nodeHeight = 111;
  const m = monitor(fakes);
  await m.checkAll();
  const r = m.readiness('LTCTEST')!;
  assert.equal(r.reason, 'index_lagging');
  assert.equal(r.message, "no block indexed yet; the node is at height 111 (at most 3 blocks behind allowed)");
});

void test('a node that refuses is unreachable at the next check, and ready again once it answers', async () => {
  const fakes = new Fakes();
  const m = monitor(fakes);
  await m.checkAll();
  // As fetch reports it: the system error is the cause of a TypeError.
  fakes.nodeFails = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
  await m.checkAll();
  const down = m.readiness('LTCTEST')!;
  assert.equal(down.reason, 'node_unreachable');
  assert.equal(down.nodeError, 'connection_refused');
  assert.match(down.message!, /^node not answering \(connection_refused\); last answer \d+ s ago$/);
  assert.match(down.detail!, /fetch failed; last answer/, 'the log gets the error itself');
  assert.equal(down.nodeHeight, 100, 'the last known height stays visible');
  fakes.nodeFails = null;
  await m.checkAll();
  assert.equal(m.readiness('LTCTEST')!.ready, true);
});

void test('a hung node (a call that never answers) is not ready after the timeout, and reading readiness never waits', async () => {
  const fakes = new Fakes();
  const m = monitor(fakes, { timeoutMs: 200 });
  await m.checkAll();
  fakes.hang = true;
  const round = m.checkAll();
  const started = performance.now();
  assert.equal(m.readiness('LTCTEST')!.ready, true, 'within the timeout the last answer stands');
  await delay(350);
  const hung = m.readiness('LTCTEST')!;
  assert.ok(performance.now() - started < 1_000);
  assert.equal(hung.reason, 'node_unreachable');
  assert.match(hung.message!, /node not answering \(timeout\)/);
  assert.equal(hung.nodeError, 'timeout');
  assert.match(hung.detail!, /no answer within 0\.2 s/);
  // While the hung call is pending no second one is started (one stuck socket, not one per interval).
  await m.checkAll().then(() => assert.equal(m.readiness('LTCTEST')!.reason, 'node_unreachable'));
  void round;
});

void test('an initial sync is reported with its phase and progress; an unreadable index is store_unreachable', async () => {
  const fakes = new Fakes();
  fakes.sync = { phase: 'building-indexes', height: 90, targetHeight: 100, etaSeconds: 42, updatedAt: 0 };
  const m = monitor(fakes);
  await m.checkAll();
  const syncing = m.readiness('LTCTEST')!;
  assert.equal(syncing.reason, 'initial_sync');
  assert.equal(syncing.syncPhase, 'building-indexes');
  assert.match(syncing.message!, /building-indexes at height 90 of 100, about 42 s left/);
  assert.equal(fakes.blockReads, 0, 'no block read while the chain is being built');
  fakes.sync = { phase: 'ready', height: 100, targetHeight: 100, etaSeconds: null, updatedAt: 0 };
  await m.checkAll();
  assert.equal(m.readiness('LTCTEST')!.ready, true);
  fakes.indexFails = new Error('connection terminated');
  await m.checkAll();
  assert.equal(m.readiness('LTCTEST')!.reason, 'store_unreachable');
});

void test('metrics: heights, lag, phase, mempool and tip age per network, read from the kept answers', async () => {
  const fakes = new Fakes();
  fakes.nodeHeight = 105;
  const m = monitor(fakes);
  const metrics = new PromMetrics({ processMetrics: false });
  registerHealthMetrics(metrics, m, () => 1_700_000_060_000);
  await m.checkAll();
  await m.checkAll();
  const text = await metrics.render();
  for (const line of [
    'outpoint_index_height{network="LTCTEST"} 100',
    'outpoint_node_height{network="LTCTEST"} 105',
    'outpoint_index_lag_blocks{network="LTCTEST"} 5',
    'outpoint_node_up{network="LTCTEST"} 1',
    'outpoint_network_ready{network="LTCTEST"} 0',
    'outpoint_sync_phase{network="LTCTEST",phase="ready"} 1',
    'outpoint_sync_phase{network="LTCTEST",phase="loading"} 0',
    'outpoint_mempool_transactions{network="LTCTEST"} 7',
    'outpoint_last_block_age_seconds{network="LTCTEST"} 60',
    'outpoint_store_up 1',
  ]) {
    assert.ok(text.includes(`\n${line}\n`), `${line} in\n${text}`);
  }
  assert.equal(fakes.blockReads, 1, 'the tip block is read once per tip, not per check');
});

void test('sync rate: blocks per second the index grew by over the last minute, from the initial sync status while it runs', async () => {
  const fakes = new Fakes();
  let clock = 1_000_000;
  const m = new HealthMonitor(() => Promise.resolve(1), [fakes.probes()], { maxLagBlocks: 3, intervalMs: 60_000, timeoutMs: 1_000, now: () => clock });
  fakes.sync = { phase: 'loading', height: 1_000, targetHeight: 50_000, etaSeconds: 900, updatedAt: 0 };
  fakes.tip = null;
  await m.checkAll();
  assert.equal(m.health('LTCTEST')!.blocksPerSecond, null, 'one sample is no rate');
  for (let i = 1; i <= 4; i++) {
    clock += 30_000;
    fakes.sync = { ...fakes.sync, height: 1_000 + i * 1_500 };
    await m.checkAll();
  }
  // The window spans the last 60 s: heights 4000 (t=60 s) … 7000 (t=120 s).
  assert.equal(m.health('LTCTEST')!.blocksPerSecond, 50);
  fakes.sync = null;
  fakes.tip = { height: 7_000, hash: 'bb'.repeat(32) };
  for (let i = 0; i < 3; i++) {
    clock += 30_000;
    await m.checkAll();
  }
  assert.equal(m.health('LTCTEST')!.blocksPerSecond, 0, 'a standing index has rate 0');
});
