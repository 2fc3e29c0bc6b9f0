/**
 * Whether a network can be served from this process, judged from the health checks' last answers (never from a
 * call made now). The reasons, in the order they are reported:
 * - store_unreachable: the index could not be read;
 * - initial_sync: the index is being bulk-loaded or built (chain queries answer 503 meanwhile);
 * - node_unreachable: the node refused, failed or did not answer the last check in time;
 * - index_lagging: the index is more than maxLagBlocks behind the node's tip;
 * - starting: no check has answered yet.
 */
import type { NetworkId } from '../../core/domain/network.js';
import type { MempoolInfo } from '../../core/store/chain-reads.js';
import type { SyncPhase, SyncStatus } from '../../core/domain/sync-status.js';
import type { PolledValue } from './polled-value.js';
import type { ProbeFailure } from './probe-failure.js';

/** What the index side of a network looked like at the last check. */
export interface IndexSnapshot {
  readonly height: number | null;
  readonly hash: string | null;
  /** Header time (UNIX seconds) of the tip block, null without a tip. */
  readonly tipTime: number | null;
  readonly mempool: MempoolInfo;
  readonly sync: SyncStatus | null;
}

/** One network's kept state, for readiness and metrics. */
export interface NetworkHealth {
  readonly id: NetworkId;
  readonly node: PolledValue<number>;
  readonly index: PolledValue<IndexSnapshot>;
  /** Blocks per second the index grew by over the last minute (null: too few checks yet). */
  readonly blocksPerSecond: number | null;
}

export interface ReadinessPolicy {
  /** A network whose index is more than this many blocks behind its node is not ready. */
  readonly maxLagBlocks: number;
}

export type NotReadyReason = 'store_unreachable' | 'initial_sync' | 'node_unreachable' | 'index_lagging' | 'starting';

export interface NetworkReadiness {
  readonly network: NetworkId;
  readonly ready: boolean;
  readonly reason: NotReadyReason | null;
  /** For people: what is wrong, with figures and failure codes, never an error's text (it is public). null when ready. */
  readonly message: string | null;
  /** The same with the errors' own text, for the log only (may name internal hosts and ports). */
  readonly detail: string | null;
  readonly indexHeight: number | null;
  readonly nodeHeight: number | null;
  readonly lagBlocks: number | null;
  readonly maxLagBlocks: number;
  readonly syncPhase: SyncPhase;
  readonly syncEtaSeconds: number | null;
  /** Why the node's last check failed, as a code (probe-failure.ts); null when it answered or was not checked yet. */
  readonly nodeError: ProbeFailure | null;
  /** UNIX seconds of the node's last answer, null if it never answered. */
  readonly nodeAnsweredAt: number | null;
}

export function judgeNetwork(health: NetworkHealth, policy: ReadinessPolicy, nowMs: number): NetworkReadiness {
  const { node, index } = health;
  const snapshot = index.value;
  const indexHeight = snapshot?.height ?? null;
  const nodeHeight = node.value;
  const lagBlocks = nodeHeight !== null ? Math.max(0, nodeHeight - (indexHeight ?? -1)) : null;
  const sync = snapshot?.sync ?? null;
  const syncPhase: SyncPhase = sync?.phase ?? 'ready';
  const verdict = ((): { reason: NotReadyReason; message: string; detail?: string } | null => {
    if (index.error !== null && !index.unchecked) {
      return { reason: 'store_unreachable', message: `index not readable (${index.errorCode})`, detail: `index not readable: ${index.error}` };
    }
    if (syncPhase !== 'ready') {
      const eta = sync?.etaSeconds != null ? `, about ${Math.round(sync.etaSeconds)} s left` : '';
      return { reason: 'initial_sync', message: `initial sync: ${syncPhase} at height ${sync?.height ?? 'none'} of ${sync?.targetHeight ?? 'unknown'}${eta}` };
    }
    if (node.error !== null && !node.unchecked) {
      const last = node.answeredAt !== null ? `; last answer ${Math.round((nowMs - node.answeredAt) / 1000)} s ago` : '';
      return { reason: 'node_unreachable', message: `node not answering (${node.errorCode})${last}`, detail: `node not answering: ${node.error}${last}` };
    }
    if (node.unchecked || index.unchecked) return { reason: 'starting', message: 'the first health check has not answered yet' };
    if (lagBlocks !== null && lagBlocks > policy.maxLagBlocks) {
      // Before the first block is indexed, "N blocks behind" would count the genesis block as one more than the node's height.
      const message = indexHeight === null
        ? `no block indexed yet; the node is at height ${nodeHeight} (at most ${policy.maxLagBlocks} blocks behind allowed)`
        : `index at height ${indexHeight} is ${lagBlocks} blocks behind the node's ${nodeHeight} (at most ${policy.maxLagBlocks} allowed)`;
      return { reason: 'index_lagging', message };
    }
    return null;
  })();
  return {
    network: health.id,
    ready: verdict === null,
    reason: verdict?.reason ?? null,
    message: verdict?.message ?? null,
    detail: verdict ? (verdict.detail ?? verdict.message) : null,
    indexHeight,
    nodeHeight,
    lagBlocks,
    maxLagBlocks: policy.maxLagBlocks,
    syncPhase,
    // 0 once ready, also for an index never bulk-loaded (no stored status): nothing is left to sync.
    syncEtaSeconds: syncPhase === 'ready' ? 0 : (sync?.etaSeconds ?? null),
    nodeError: node.errorCode === 'not_checked' ? null : node.errorCode,
    nodeAnsweredAt: node.answeredAt !== null ? Math.floor(node.answeredAt / 1000) : null,
  };
}
