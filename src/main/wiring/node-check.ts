import { setTimeout as delay } from 'node:timers/promises';
import { ConfigError, RpcUnavailableError, type Logger, type RawTxMode } from '../../core/index.js';
import { getNetworkParams } from '../../chains/networks.js';
import { assertNodeServesNetwork } from '../../node/node-identity.js';
import type { NetworkRuntime } from './network-runtime.js';

export interface NodeWaitOptions {
  /** `[store] raw_txs`: with "node" a pruned node is refused (it cannot give old blocks' txs). */
  readonly rawTxs?: RawTxMode;
  readonly retryMs?: number;
  /** A waiting network logs again after this long. */
  readonly logEveryMs?: number;
}

/**
 * Before a network's indexer starts: waits until its node answers (it may be starting or warming up: -28),
 * then refuses it with a ConfigError if it serves another chain than configured. Logs while waiting.
 */
export async function waitForConfiguredNode(network: NetworkRuntime, where: string, logger: Logger, options: NodeWaitOptions = {}): Promise<void> {
  const params = getNetworkParams(network.config.id, network.config.chain);
  let lastLog = -Infinity;
  for (;;) {
    try {
      await assertNodeServesNetwork(network.node, params, where);
      if (options.rawTxs === 'node' && (await network.node.getBlockchainInfo()).pruned) {
        throw new ConfigError(`[store] raw_txs = "node" reads raw transactions from the node, but the ${network.config.id} node at ${where} is pruned: ` +
          'run it unpruned, or set raw_txs = "store"');
      }
      return;
    } catch (err) {
      if (!(err instanceof RpcUnavailableError)) throw err;
      if (Date.now() - lastLog >= (options.logEveryMs ?? 30_000)) {
        logger.warn('waiting for the node', { network: network.config.id, node: where, error: err.message });
        lastLog = Date.now();
      }
      await delay(options.retryMs ?? 2_000);
    }
  }
}
