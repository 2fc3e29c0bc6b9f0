import type { RegtestNode } from './regtest-node.js';

/**
 * Litecoin MWEB activates at height 432 on regtest, and the activation block must carry a
 * peg-in (the first HogEx needs an input): mine to 431, peg in, mine the activation block.
 */
export async function mwebActivate(
  node: RegtestNode,
  /** Runs while the peg-in waits in the mempool (e.g. to look at its mempool form). */
  beforeMining?: (pegInTxid: string) => Promise<void>,
): Promise<{ pegInTxid: string; activationHash: string }> {
  if (node.coin !== 'LTC') throw new Error('mwebActivate: Litecoin only');
  const height = await node.rpc.call<number>('getblockcount');
  if (height > 431) throw new Error(`mwebActivate: node already at height ${height}`);
  if (height < 431) await node.mine(431 - height);
  const pegInTxid = await node.send(await node.newAddress('mweb'), '1');
  await beforeMining?.(pegInTxid);
  const [activationHash] = await node.mine(1);
  return { pegInTxid, activationHash: activationHash! };
}
