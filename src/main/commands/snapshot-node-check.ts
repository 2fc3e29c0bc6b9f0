import type { OutpointConfig } from '../../config/index.js';
import { ConfigError, RpcUnavailableError } from '../../core/index.js';
import { NodeClient } from '../../node/rpc/node-client.js';
import { RpcClient } from '../../node/rpc/rpc-client.js';
import type { SnapshotHeader } from '../../store/common/dump/snapshot-export.js';

/**
 * Before a snapshot is loaded: the configured node of its network must have the snapshot's tip block on its main
 * chain (same hash at the same height). Otherwise the indexer would start from a block the node does not know (another
 * chain, a reorged-away tip, or a node not yet synced that far). An unreachable node refuses too: the operator may
 * pass --no-node-check when loading before the node is up, and the indexer then checks on start (docs/snapshots.md).
 */
export async function checkSnapshotTip(config: OutpointConfig, header: SnapshotHeader): Promise<void> {
  const network = config.networks.find((n) => n.id === header.network);
  if (!network) throw new ConfigError(`the snapshot is of ${header.network}, which is not configured ([networks.${header.network}]); configure it or pass --no-node-check`);
  const rpc = new RpcClient({ url: network.rpcUrl, ...(network.rpcCookie ? { cookieFile: network.rpcCookie } : {}), retries: 1, timeoutMs: 10_000 });
  const node = new NodeClient(rpc);
  let hash: string | null;
  try {
    hash = await node.getBlockHash(header.tip.height).catch((err: unknown) => {
      if (err instanceof RpcUnavailableError) throw err;
      return null; // "Block height out of range": the node has not got that far
    });
  } catch (err) {
    throw new ConfigError(`the ${header.network} node is unreachable (${(err as Error).message}): cannot check the snapshot's tip; start it, or pass --no-node-check`);
  } finally {
    rpc.close();
  }
  if (hash !== header.tip.hash) {
    throw new ConfigError(`the ${header.network} node does not have the snapshot's tip ${header.tip.hash} at height ${header.tip.height} on its main chain ` +
      `(it has ${hash ?? 'no block at that height'}): the snapshot is of another chain or the node is not synced that far`);
  }
}
