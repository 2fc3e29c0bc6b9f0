/**
 * One configuration of the real-node mempool bench (a node, an engine, ZMQ or polling), in four steps on a funded
 * chain whose spends are already signed:
 * 1. ingest: `prefill` txs at the node before `outpoint serve` starts; from its start until v2 `get_info` counts them
 *    all, with four clients reading v2 balances meanwhile and the count sampled (it must never exceed the node's);
 * 2. blocks: blocks of `blockTxs` of the mempool's oldest txs (generateblock) until `liveMempool` txs are left: per
 *    block, `block_update` through pusher-js after the node had the block, and when the stored mempool's count was
 *    the node's again;
 * 3. burst: `burstRate` tx/s for `burstSeconds`, each tx timed from its sendrawtransaction returning to its
 *    `tx_update` (and `balance_update` on its watched address) arriving at pusher-js; node − index count sampled;
 * 4. one more block of `blockTxs` on the mempool the burst left.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { loadavg } from 'node:os';
import { RealtimeWatch } from '../mempool-rate/realtime-watch.js';
import { percentile } from '../soak/soak-load.js';
import { BalanceReaders, CountSampler } from './api-readers.js';
import { sendAll } from '../../test/helpers/mass-spends.js';
import { freshScript } from '../../test/helpers/mass-spends.js';
import type { NodeUnderTest, Notify } from './node-under-test.js';
import { startService, type Engine } from './service-under-test.js';

export interface RunSettings {
  readonly engine: Engine;
  readonly notify: Notify;
  readonly pollMs: number;
  readonly prefill: number;
  readonly liveMempool: number;
  readonly blockTxs: number;
  readonly burstRate: number;
  readonly burstSeconds: number;
  readonly cpuProfDir?: string;
}

export interface SignedTx {
  readonly txid: string;
  readonly hex: string;
}

export interface Spread {
  readonly n: number;
  readonly missing: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export interface BlockFigure {
  readonly txs: number;
  readonly mempoolBefore: number;
  readonly blockUpdateMs: number | null;
  readonly mempoolEqualMs: number | null;
}

export interface RunFigures {
  readonly label: string;
  readonly load: string;
  readonly nodeAcceptTxPerS: number;
  readonly ingest: {
    readonly txs: number;
    readonly readySeconds: number;
    readonly seconds: number;
    readonly txPerS: number;
    readonly balance: Spread & { readonly failed: number; readonly statuses: string };
    /** Samples where the index counted more than the node, or less than before. */
    readonly dishonest: number;
    readonly cpu: { readonly service: number; readonly database: number };
    readonly rssMiB: number;
  };
  readonly blocks: readonly BlockFigure[];
  readonly burst: {
    readonly txs: number;
    readonly txUpdate: Spread;
    readonly balanceUpdate: Spread;
    readonly behindMax: number;
    readonly balance: Spread & { readonly failed: number; readonly statuses: string };
    readonly cpu: { readonly service: number; readonly database: number };
    readonly rssMiB: number;
  };
  readonly lastBlock: BlockFigure;
}

const nowMs = (): number => performance.timeOrigin + performance.now();

export function spreadOf(values: readonly number[], missing = 0): Spread {
  return { n: values.length, missing, p50: percentile(values, 50), p99: percentile(values, 99), max: values.length ? Math.max(...values) : Number.NaN };
}

async function until(what: string, timeoutMs: number, check: () => boolean | Promise<boolean>, everyMs = 20): Promise<number> {
  const started = nowMs();
  while (!(await check())) {
    if (nowMs() - started > timeoutMs) throw new Error(`bench: ${what} not within ${timeoutMs} ms`);
    await delay(everyMs);
  }
  return nowMs();
}

export async function runConfig(nut: NodeUnderTest, prefill: readonly SignedTx[], burst: readonly SignedTx[], watched: readonly string[], s: RunSettings): Promise<RunFigures> {
  const label = `${nut.kind}, ${s.engine}, ${s.notify === 'zmq' ? 'ZMQ sequence' : `polling every ${s.pollMs} ms`}`;
  const load = loadavg().map((l) => l.toFixed(1)).join(' ');
  const rpc = nut.node.rpc;
  const firstBlock = (await rpc.call<number>('getblockcount')) + 1;
  let t = nowMs();
  await sendAll(nut.node, prefill.map((tx) => tx.hex));
  const nodeAcceptTxPerS = prefill.length / ((nowMs() - t) / 1000);

  const spawned = nowMs();
  const service = await startService(nut, { engine: s.engine, notify: s.notify, pollMs: s.pollMs, nodeArgs: s.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${s.cpuProfDir}`] : [] });
  const ready = nowMs();
  const base = service.serve.url;
  let watch: RealtimeWatch | null = null;
  const readers = new BalanceReaders(base, nut.network, watched);
  const counts = new CountSampler(nut.node, base, nut.network, 100);
  try {
    const cpu0 = service.cpu();
    const filled = await until('the prefill in the index', 600_000, () => (counts.latest?.index ?? 0) >= prefill.length, 50);
    const cpu1 = service.cpu();
    let dishonest = 0;
    counts.samples.forEach((c, i) => {
      if (c.index > c.node || (i > 0 && c.index < counts.samples[i - 1]!.index)) dishonest++;
    });
    const ingestBalance = readers.between(ready, filled);
    const ingest = {
      txs: prefill.length, readySeconds: (ready - spawned) / 1000, seconds: (filled - spawned) / 1000,
      txPerS: prefill.length / ((filled - spawned) / 1000),
      balance: { ...spreadOf(ingestBalance.ms), failed: ingestBalance.failed, statuses: ingestBalance.statuses }, dishonest,
      cpu: { service: cpu1.service - cpu0.service, database: cpu1.database - cpu0.database }, rssMiB: service.rssBytes() / 2 ** 20,
    };
    watch = await RealtimeWatch.open(service.serve.port, 'outpoint', nut.network, watched);

    // Oldest first, as the prefill was sent.
    const pending = prefill.map((tx) => tx.txid);
    const mineOldest = async (): Promise<BlockFigure> => {
      const txids = pending.splice(0, s.blockTxs);
      const mempoolBefore = (await rpc.call<{ size: number }>('getmempoolinfo')).size;
      const { hash } = await rpc.call<{ hash: string }>('generateblock', [nut.address(freshScript()), txids]);
      const mined = nowMs();
      const nodeLeft = (await rpc.call<{ size: number }>('getmempoolinfo')).size;
      const equalAt = await until('the stored mempool equal to the node\'s', 60_000, async () => {
        const info = (await (await fetch(`${base}/api/v2/get_info/${nut.network}`)).json()) as { data?: { unconfirmed_txs?: number } };
        return info.data?.unconfirmed_txs === nodeLeft;
      }).catch(() => null);
      const blockAt = await until('block_update', 30_000, () => watch!.blockUpdates.has(hash)).then(() => watch!.blockUpdates.get(hash)!).catch(() => null);
      return { txs: txids.length, mempoolBefore, blockUpdateMs: blockAt === null ? null : blockAt - mined, mempoolEqualMs: equalAt === null ? null : equalAt - mined };
    };
    const blocks: BlockFigure[] = [];
    while (prefill.length - blocks.length * s.blockTxs > s.liveMempool && pending.length >= s.blockTxs) blocks.push(await mineOldest());

    // The burst: each tx sent when the schedule says, alone (as a wallet's broadcast), timed from the node's answer.
    const sentAt = new Map<string, number>();
    const burstStart = nowMs();
    const cpu2 = service.cpu();
    let behindMax = 0;
    const behindFrom = counts.samples.length;
    for (let i = 0; i < burst.length; ) {
      const due = Math.min(burst.length, Math.floor(((nowMs() - burstStart) / 1000) * s.burstRate));
      for (; i < due; i++) {
        await rpc.call('sendrawtransaction', [burst[i]!.hex]);
        sentAt.set(burst[i]!.txid, nowMs());
      }
      await delay(5);
    }
    const burstEnd = nowMs();
    await until('every burst tx on realtime', 60_000, () => burst.every((tx) => watch!.txUpdates.has(tx.txid))).catch(() => null);
    const cpu3 = service.cpu();
    for (const c of counts.samples.slice(behindFrom)) if (c.at <= burstEnd) behindMax = Math.max(behindMax, c.node - c.index);
    const lagOf = (arrivals: Map<string, number>): Spread => {
      const lags = burst.map((tx) => arrivals.get(tx.txid)).map((at, i) => (at === undefined ? null : at - sentAt.get(burst[i]!.txid)!));
      return spreadOf(lags.filter((l): l is number => l !== null), lags.filter((l) => l === null).length);
    };
    const burstBalance = readers.between(burstStart, burstEnd);
    const burstFigures = {
      txs: burst.length, txUpdate: lagOf(watch.txUpdates), balanceUpdate: lagOf(watch.balanceUpdates), behindMax,
      balance: { ...spreadOf(burstBalance.ms), failed: burstBalance.failed, statuses: burstBalance.statuses },
      cpu: { service: cpu3.service - cpu2.service, database: cpu3.database - cpu2.database }, rssMiB: service.rssBytes() / 2 ** 20,
    };
    const lastBlock = await mineOldest();
    return { label, load, nodeAcceptTxPerS, ingest, blocks, burst: burstFigures, lastBlock };
  } finally {
    watch?.close();
    await readers.stop();
    await counts.stop();
    await service.stop();
    // The next configuration starts from the funded chain with an empty mempool: the blocks mined here are
    // invalidated (their txs return to the mempool) and the node restarted (it does not persist its mempool).
    const mined = await rpc.call<number>('getblockcount');
    if (mined >= firstBlock) await rpc.call('invalidateblock', [await rpc.call<string>('getblockhash', [firstBlock])]);
    await nut.node.halt();
    await nut.node.resume();
    t = nowMs();
  }
}
