import { ConfigError, RpcError } from '../core/domain/errors.js';
import { ALL_NETWORK_PARAMS, BTC_TESTNET4_GENESIS_HASH, coinOf, knownGenesisHashes } from '../chains/networks.js';
import type { NetworkParams } from '../chains/network-params.js';
import type { NodeClient } from './rpc/node-client.js';

const CHAIN_FLAG = { main: 'no network flag', test: '-testnet', regtest: '-regtest' } as const;

/** What a genesis hash belongs to, in words ("Litecoin Regtest"), or null for a chain Outpoint does not know. */
function chainOf(genesis: string): string | null {
  if (genesis === BTC_TESTNET4_GENESIS_HASH) return 'Bitcoin Testnet4';
  return ALL_NETWORK_PARAMS.find((p) => p.genesisHash === genesis)?.name ?? null;
}

/**
 * Refuses a node that serves another chain than the configured network: its block 0 must be this network's
 * genesis (`getblockhash 0`, on every supported node). Without this check a Litecoin node configured as DOGE,
 * or a testnet node configured as main, would look like a reorg down to height 0 and wipe the index.
 * `where` names the node in the message (the RPC URL without credentials).
 */
export async function assertNodeServesNetwork(node: NodeClient, params: NetworkParams, where: string): Promise<void> {
  const genesis = await node.getBlockHash(0);
  if (knownGenesisHashes(params).includes(genesis)) return;
  let chainName = '';
  try {
    chainName = `, chain "${(await node.getBlockchainInfo()).chain}"`;
  } catch (err) {
    if (!(err instanceof RpcError) && !(err instanceof TypeError)) throw err;
  }
  const actual = chainOf(genesis);
  throw new ConfigError(
    `networks.${params.id} is configured as ${params.name} (genesis ${params.genesisHash}), but the node at ${where} ` +
      `serves ${actual ?? 'a chain Outpoint does not know'} (genesis ${genesis}${chainName}). Point networks.${params.id}.rpc_url ` +
      `at a ${coinOf(params).nodeSoftware} node running ${params.name} (${CHAIN_FLAG[params.chain]}), or set networks.${params.id}.chain ` +
      `to the chain that node runs.`,
  );
}
