/** Chains for sync tests: blocks each holding one payment to many fresh addresses of mixed kinds, then empty blocks. */
import type { RegtestNode } from './regtest-node.js';

export async function minePaymentChain(node: RegtestNode, blocks: number, outputsPerBlock: number, emptyBlocks: number): Promise<void> {
  for (let round = 0; round < blocks; round++) {
    const outputs: Record<string, string> = {};
    for (let i = 0; i < outputsPerBlock; i++) outputs[await node.newAddress(i % 2 === 0 ? 'bech32' : 'legacy')] = '0.001';
    await node.wallet.call('sendmany', ['', outputs]);
    await node.mine(1);
  }
  await node.mine(emptyBlocks);
}
