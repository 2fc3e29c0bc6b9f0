/**
 * The real node the bench measures against: bitcoind (Knots 29: ZMQ `sequence`, or polled) or litecoind 0.21 (the
 * Debian build has no ZMQ: polled), regtest, no wallet. `-checkmempool=0`: regtest nodes default to a consistency
 * check of the whole mempool at every tx (mainnet's default is 0), which made acceptance O(mempool) per tx (61 ms a tx
 * at 5,000 txs here, and the node held its locks meanwhile): without it the figures would be the node's, not ours.
 */
import { getNetworkParams, scriptToAddress, type NetworkParams } from '../../src/chains/addressing.js';
import { startBitcoind, startLitecoind, type RegtestNode } from '../../test/helpers/regtest-node.js';

export type NodeKind = 'bitcoind' | 'litecoind';
export type Notify = 'zmq' | 'poll';

export interface NodeUnderTest {
  readonly kind: NodeKind;
  readonly node: RegtestNode;
  readonly network: 'BTCTEST' | 'LTCTEST';
  readonly params: NetworkParams;
  /** The `[networks.X]` body of the service's configuration. */
  networkConfig(notify: Notify, pollMs: number): string;
  address(script: Uint8Array): string;
}

const NODE_ARGS = ['-checkmempool=0', '-maxmempool=1000'];

export async function startNodeUnderTest(kind: NodeKind): Promise<NodeUnderTest> {
  const node = kind === 'bitcoind' ? await startBitcoind({ wallet: false, extraArgs: NODE_ARGS }) : await startLitecoind({ wallet: false, extraArgs: NODE_ARGS });
  const network = kind === 'bitcoind' ? 'BTCTEST' : 'LTCTEST';
  const params = getNetworkParams(network, 'regtest');
  return {
    kind, node, network, params,
    networkConfig(notify, pollMs) {
      if (notify === 'zmq' && !node.zmqUrl) throw new Error(`${kind} has no ZMQ here`);
      const zmq = notify === 'zmq' ? `zmq_url = "${node.zmqUrl}"\n` : '';
      return `[networks.${network}]\nchain = "regtest"\nrpc_url = "${node.rpcUrl}"\npoll_ms = ${pollMs}\n${zmq}`;
    },
    address: (script) => scriptToAddress(params, script)!,
  };
}
