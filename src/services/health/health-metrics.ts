/**
 * Per-network figures from the health checks' last answers (sampled at scrape time, never by calling the node):
 * heights, lag, readiness, sync phase and rate, mempool size and the age of the tip block.
 */
import type { MetricSample, Metrics } from '../../core/infrastructure/metrics.js';
import type { ReplicaState } from '../../core/store/read-replicas.js';
import type { SyncPhase } from '../../core/domain/sync-status.js';
import type { HealthMonitor } from './health-monitor.js';
import type { NetworkHealth } from './readiness.js';

const PHASES: readonly SyncPhase[] = ['loading', 'building-indexes', 'catching-up', 'ready'];

export function registerHealthMetrics(metrics: Metrics, monitor: HealthMonitor, nowMs: () => number = Date.now): void {
  const perNetwork = (name: string, help: string, pick: (h: NetworkHealth) => number | null): void => {
    metrics.sampled({
      name,
      help,
      type: 'gauge',
      labels: ['network'],
      sample: () => {
        const samples: MetricSample[] = [];
        for (const id of monitor.ids()) {
          const value = pick(monitor.health(id)!);
          if (value !== null) samples.push({ labels: { network: id }, value });
        }
        return samples;
      },
    });
  };
  perNetwork('outpoint_index_height', 'Height of the indexed tip (last health check).', (h) => h.index.value?.height ?? null);
  perNetwork('outpoint_node_height', "The node's block count at its last answer.", (h) => h.node.value);
  perNetwork('outpoint_index_lag_blocks', 'Blocks the index is behind the node (last answers of both).', (h) => monitor.readiness(h.id)!.lagBlocks);
  perNetwork('outpoint_node_up', '1 when the node answered the last health check in time, else 0.', (h) => (h.node.error === null ? 1 : 0));
  perNetwork('outpoint_network_ready', '1 when /ready/{network} answers 200, else 0.', (h) => (monitor.readiness(h.id)!.ready ? 1 : 0));
  perNetwork('outpoint_sync_blocks_per_second', 'Blocks per second the index grew by over the last minute.', (h) => h.blocksPerSecond);
  perNetwork('outpoint_sync_eta_seconds', 'Estimated seconds until the initial sync is done (0 once ready; absent while no estimate exists).', (h) => monitor.readiness(h.id)!.syncEtaSeconds);
  perNetwork('outpoint_mempool_transactions', 'Transactions in the indexed mempool.', (h) => h.index.value?.mempool.count ?? null);
  perNetwork('outpoint_mempool_bytes', 'Serialized size of the indexed mempool.', (h) => h.index.value?.mempool.bytes ?? null);
  perNetwork('outpoint_last_block_age_seconds', "Seconds since the indexed tip block's header time.", (h) => {
    const time = h.index.value?.tipTime ?? null;
    return time === null ? null : Math.max(0, nowMs() / 1000 - time);
  });
  metrics.sampled({
    name: 'outpoint_sync_phase',
    help: 'Initial-sync phase of each network: 1 for the current phase, 0 for the others (ready once synced).',
    type: 'gauge',
    labels: ['network', 'phase'],
    sample: () =>
      monitor.ids().flatMap((id) => {
        const phase = monitor.readiness(id)!.syncPhase;
        return PHASES.map((p) => ({ labels: { network: id, phase: p }, value: p === phase ? 1 : 0 }));
      }),
  });
  const perReplica = (name: string, help: string, pick: (r: ReplicaState) => number | null): void => {
    metrics.sampled({
      name, help, type: 'gauge', labels: ['replica'],
      sample: () => monitor.replicas().flatMap((r) => {
        const value = pick(r);
        return value === null ? [] : [{ labels: { replica: r.name }, value }];
      }),
    });
  };
  perReplica('outpoint_store_replica_lag_seconds', 'How long each read replica has been missing a change the primary had (absent while it does not answer).', (r) => (r.lagMs === null ? null : r.lagMs / 1000));
  perReplica('outpoint_store_replica_up', '1 when the read replica answered its last check, else 0.', (r) => (r.up ? 1 : 0));
  perReplica('outpoint_store_replica_in_use', '1 while requests read from the replica (up, a hot standby, lag within [store] max_replica_lag_ms), else 0.', (r) => (r.inUse ? 1 : 0));
  metrics.sampled({
    name: 'outpoint_store_up',
    help: '1 when the store answered the last health check in time, else 0.',
    type: 'gauge',
    sample: () => [{ labels: {}, value: monitor.store.error === null ? 1 : 0 }],
  });
}
