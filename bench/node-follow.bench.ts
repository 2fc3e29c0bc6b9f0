/**
 * What following Dogecoin Core 1.14 costs the node and the wire: requests and reply bytes of the notifiers over an
 * idle 10 s, with a mempool of 1,000 txs, on the 1.14 stand-in (its replies have 1.14's field sets and number
 * formats, so byte counts carry over; its CPU figures do not), and the signals they gave meanwhile (each costs the
 * indexer one getrawmempool). Compared: ZMQ hashblock/hashtx with the reconcile poll (defaults: 1 s, a mempool
 * signal at least every 10 s), and RPC polling every 250 ms (PollNotifier defaults: a mempool signal every 5 s).
 * Run: node --import tsx bench/node-follow.bench.ts
 */
import { toHex } from '../src/chains/hash.js';
import type { BlockNotifier } from '../src/node/notifiers/block-notifier.js';
import { PollNotifier } from '../src/node/notifiers/poll-notifier.js';
import { ZmqNotifier } from '../src/node/notifiers/zmq-notifier.js';
import { startDogecoinStandIn, type DogecoinStandIn } from '../test/helpers/dogecoin/dogecoin-standin.js';
import { call, rawRpc } from '../test/helpers/dogecoin/raw-rpc.js';

const MEMPOOL_TXS = 1_000;
const IDLE_MS = 10_000;

async function fill(node: DogecoinStandIn): Promise<void> {
  await node.mine(60 + Math.ceil(MEMPOOL_TXS / 20));
  // Chains of 20 txs (under the ancestor limit of 25), each starting from a confirmed coinbase.
  let prev: { txid: string; vout: number } | null = null;
  for (let i = 0; i < MEMPOOL_TXS; i++) {
    const input = i % 20 === 0 || !prev ? node.wallet.unspent().find((c) => c.confirmed)! : prev;
    const tx = node.wallet.createTx({ inputs: [input], outputs: [{ address: node.wallet.newAddress(), value: 100_000_000n }] });
    await node.rpc.call('sendrawtransaction', [toHex(tx.raw), true]);
    prev = { txid: tx.txid, vout: 1 }; // the change
  }
}

async function idleCost(
  node: DogecoinStandIn,
  notifier: BlockNotifier,
): Promise<{ requests: number; calls: Record<string, number>; signals: { tip: number; mempool: number } }> {
  const signals = { tip: 0, mempool: 0 };
  notifier.on('tip', () => signals.tip++);
  notifier.on('mempool', () => signals.mempool++);
  await notifier.start();
  const before = new Map(node.calls);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  await notifier.stop();
  const calls: Record<string, number> = {};
  for (const [method, n] of node.calls) if (n !== (before.get(method) ?? 0)) calls[method] = n - (before.get(method) ?? 0);
  return { requests: Object.values(calls).reduce((s, n) => s + n, 0), calls, signals };
}

export async function run(): Promise<void> {
  const node = await startDogecoinStandIn({});
  try {
    await fill(node);
    const poll = await rawRpc(node.rpcUrl, [call('getbestblockhash', [], 0), call('getmempoolinfo', [], 1)]);
    const list = await rawRpc(node.rpcUrl, call('getrawmempool'));
    const verbose = await rawRpc(node.rpcUrl, call('getrawmempool', [true]));
    console.log(`\n## Following Dogecoin Core 1.14 (stand-in, mempool ${MEMPOOL_TXS} txs)`);
    console.log(`reconcile poll reply (getbestblockhash + getmempoolinfo): ${poll.text.length} bytes`);
    console.log(`getrawmempool: ${list.text.length} bytes (${(list.text.length / MEMPOOL_TXS).toFixed(1)} per tx)`);
    console.log(`getrawmempool true: ${verbose.text.length} bytes (${(verbose.text.length / MEMPOOL_TXS).toFixed(0)} per tx)`);
    const zmq = await idleCost(node, new ZmqNotifier(node.node, { hashblock: node.zmqUrl!, hashtx: node.zmqUrl! }));
    const polling = await idleCost(node, new PollNotifier(node.node));
    const bytes = (c: Record<string, number>): number =>
      (c.getmempoolinfo ?? 0) * poll.text.length + (c.getrawmempool ?? 0) * list.text.length;
    for (const [how, cost] of [['ZMQ hashblock/hashtx + reconcile', zmq], ['polling every 250 ms', polling]] as const) {
      console.log(`idle ${IDLE_MS / 1000} s, ${how}: ${JSON.stringify(cost.calls)}, ~${(bytes(cost.calls) / 1024).toFixed(1)} KiB of replies, signals ${JSON.stringify(cost.signals)}`);
    }
  } finally {
    await node.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
