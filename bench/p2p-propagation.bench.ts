/**
 * Time from a transaction's first announcement to confidence > 0.9, on the five-node litecoind -regtest network of
 * test/integration/p2p-litecoin-network.test.ts (a chain n0 ─ n1 ─ n2 ─ n3 ─ n4, Outpoint indexing n0 and listening
 * to n0, n1, n3, n4; each payment is sent to n2, which we do not listen to). Two settings:
 *   whitelisted  the nodes whitelist loopback, so they announce transactions at once (what the tests use)
 *   trickle      no whitelist: Core's Poisson announcement timers, 5 s on average towards inbound peers (our
 *                listener is one) and 2 s towards outbound ones, as on a real network
 * Reference in the same run: the time from sending to the first announcement reaching the listener.
 *
 *   npm run bench:propagation      (BENCH_P2P_TRIALS overrides 5 payments per setting)
 */
import { getNetworkParams } from '../src/chains/networks.js';
import { link, sameTip, serveOutpoint, signedSpend, walletUtxo } from '../test/helpers/p2p-network.js';
import { startLitecoind, waitFor, type RegtestNode } from '../test/helpers/regtest-node.js';

const N = 'LTCTEST';
const TRIALS = Number(process.env['BENCH_P2P_TRIALS'] ?? 5);

interface Trial {
  /** Sending to n2 → first announcement to the listener. */
  readonly firstMs: number;
  /** First announcement → confidence > 0.9. */
  readonly toConfidentMs: number;
}

async function setting(whitelist: boolean): Promise<Trial[]> {
  const nodes = await Promise.all([0, 1, 2, 3, 4].map((i) => startLitecoind({ funded: i === 0, wallet: i === 0, whitelist, extraArgs: ['-connect=0'] })));
  const [n0, n1, n2, n3, n4] = nodes as [RegtestNode, RegtestNode, RegtestNode, RegtestNode, RegtestNode];
  const outpoint = await serveOutpoint(N, n0, [n0, n1, n3, n4]).catch(async (err: unknown) => {
    await Promise.all(nodes.map((n) => n.stop()));
    throw err;
  });
  try {
    await link(n0, n1);
    await link(n1, n2);
    await link(n3, n2);
    await link(n4, n3);
    await waitFor(() => (outpoint.runtime.networks[0]!.p2p.listener?.peers().length ?? 0) === 4, 30_000, 'listener connected');
    const watcher = outpoint.runtime.networks[0]!.p2p.watcher;
    const trials: Trial[] = [];
    for (let i = 0; i < TRIALS; i++) {
      await n0.mine(1);
      await sameTip(nodes, 60_000);
      const payment = await signedSpend(n0, await walletUtxo(n0), await n0.newAddress('bech32'), 100_000n);
      const sent = Date.now();
      await n2.rpc.call('sendrawtransaction', [payment.hex]);
      await waitFor(async () => {
        const answer = await outpoint.get<{ data: { confidence: number } }>(`/api/v2/get_confidence/${N}/${payment.txid}`);
        return answer.status === 200 && answer.body.data.confidence > 0.9;
      }, 120_000, 'confidence > 0.9', 20);
      const confident = Date.now();
      const first = watcher.sighting(payment.txid)!.firstSeenMs;
      trials.push({ firstMs: first - sent, toConfidentMs: confident - first });
    }
    return trials;
  } finally {
    await outpoint.stop();
    await Promise.all(nodes.map((n) => n.stop()));
  }
}

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

export async function run(): Promise<void> {
  const propagation = getNetworkParams(N, 'regtest').txPropagationSeconds;
  console.log(`p2p propagation: 5 litecoind -regtest, listener on 4, ${TRIALS} payments per setting (model's propagation time ${propagation} s)`);
  for (const whitelist of [true, false]) {
    const trials = await setting(whitelist);
    const to = trials.map((t) => t.toConfidentMs);
    const first = trials.map((t) => t.firstMs);
    console.log(
      `  ${(whitelist ? 'whitelisted' : 'trickle').padEnd(11)} first announcement → confidence > 0.9: median ${median(to)} ms, min ${Math.min(...to)}, max ${Math.max(...to)}` +
        `   (reference, sending → first announcement: median ${median(first)} ms)   each: ${to.join(', ')} ms`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
