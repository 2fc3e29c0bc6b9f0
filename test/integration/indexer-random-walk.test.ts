/**
 * A seeded random walk over a real litecoind: payments of odd amounts to every address type, spends from those
 * addresses, blocks, and reorgs of 1-3 blocks (their txs go back to the mempool and into the new branch), in an
 * order no hand-written test picks. After every step both engines must equal the node:
 * tip, mempool, and each watched address's balance and UTXO list to the satoshi. A failure prints the seed and the
 * steps so far (OUTPOINT_WALK_SEED reruns it; OUTPOINT_WALK_STEPS walks longer).
 */
import { describe, it } from 'node:test';
import { getNetworkParams } from '../../src/chains/networks.js';
import { formatCoins } from '../../src/core/index.js';
import type { RpcClient } from '../../src/node/rpc-client.js';
import { useIndexedRegtest } from '../helpers/indexer-harness.js';
import { startLitecoind, type AddressType } from '../helpers/regtest-node.js';
import { seededRandom } from '../helpers/seeded-random.js';

const params = getNetworkParams('LTCTEST', 'regtest');
const SEED = Number(process.env['OUTPOINT_WALK_SEED'] ?? 20261123);
const STEPS = Number(process.env['OUTPOINT_WALK_STEPS'] ?? 24);
const TYPES: readonly AddressType[] = ['legacy', 'p2sh-segwit', 'bech32'];

const env = useIndexedRegtest(params, () => startLitecoind({ funded: true }));

describe('random walk against litecoind (both engines)', () => {
  it(`${STEPS} seeded steps: after each, tip, mempool and watched addresses equal the node's`, async () => {
    const { node, watched } = env();
    const random = seededRandom(SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    // Odd amounts (not round coins) so a value off by one base unit anywhere shows.
    const amount = (): string => formatCoins(10_000n + BigInt(Math.floor(random() * 50_000_000)));
    const walker: RpcClient = await node.createWallet('walker');
    const walkerAddress = async (): Promise<string> => {
      const address = await walker.call<string>('getnewaddress', ['', pick(TYPES)]);
      watched.push(address);
      return address;
    };
    for (let i = 0; i < 4; i++) await node.send(await walkerAddress(), amount());
    await node.mine(1);
    const steps: string[] = [];
    for (let step = 0; step < STEPS; step++) {
      const roll = random();
      if (roll < 0.35) {
        const n = 1 + Math.floor(random() * 3);
        for (let i = 0; i < n; i++) await node.send(random() < 0.7 ? await walkerAddress() : await node.newAddress(pick(TYPES)), amount());
        steps.push(`pay ${n}`);
      } else if (roll < 0.55) {
        // Spends the walker's coins (watched addresses) to a watched address and elsewhere; change stays in the walker.
        const balance = await walker.call<number>('getbalance', ['*', 0]);
        if (balance > 0.01) {
          await walker.call('sendtoaddress', [random() < 0.5 ? await walkerAddress() : await node.newAddress('bech32'), formatCoins(BigInt(Math.floor(balance * 0.3 * 1e8)))]);
          steps.push('spend');
        } else {
          steps.push('spend (nothing to spend)');
        }
      } else if (roll < 0.85) {
        const n = 1 + Math.floor(random() * 2);
        await node.mine(n);
        steps.push(`mine ${n}`);
      } else {
        const depth = 1 + Math.floor(random() * 3);
        const height = await node.rpc.call<number>('getblockcount');
        await node.rpc.call('invalidateblock', [await node.rpc.call<string>('getblockhash', [height - depth + 1])]);
        await node.mine(depth + 1, await node.newAddress('legacy'));
        steps.push(`reorg ${depth}`);
      }
      await env().check(`seed ${SEED}, step ${step + 1} (${steps.join(', ')})`);
    }
  });
});
