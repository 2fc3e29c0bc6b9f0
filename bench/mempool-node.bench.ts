/**
 * The mempool at mainnet size on real nodes (issue 47; not part of CI or `npm run bench`): a regtest bitcoind (ZMQ
 * `sequence`, and polled) and litecoind (polled: the Debian build has no ZMQ), real txs signed here and validated by
 * the node, `outpoint serve` on SQLite and on PostgreSQL. Per configuration (bench/mempool-node/run-config.ts): the
 * ingest of a mempool found at start, blocks confirming the oldest txs, a burst through pusher-js, a last block.
 *
 *   npm run bench:mempool-node
 * Settings (environment): BENCH_NODE_KINDS (bitcoind,litecoind), BENCH_NODE_ENGINES (sqlite,postgres),
 * BENCH_NODE_NOTIFY (zmq,poll: zmq only where the node has it), BENCH_NODE_POLL_MS (100), BENCH_NODE_PREFILL (100000),
 * BENCH_NODE_LIVE (60000: blocks are mined until this many are left), BENCH_NODE_BLOCK_TXS (4000),
 * BENCH_NODE_BURST_RATE (100), BENCH_NODE_BURST_S (60), BENCH_NODE_CPU_PROF (a directory: the service runs with
 * --cpu-prof and writes there). Figures print as they come and go to .bench-cache/mempool-node-results-*.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fundCoins } from '../test/helpers/mass-spends.js';
import { startNodeUnderTest, type NodeKind, type Notify } from './mempool-node/node-under-test.js';
import { printRun } from './mempool-node/print-figures.js';
import { runConfig, type RunFigures, type SignedTx } from './mempool-node/run-config.js';
import type { Engine } from './mempool-node/service-under-test.js';
import { freshScript, SpendMaker } from '../test/helpers/mass-spends.js';
import { endAfterFigures } from './scale/end-after-figures.js';

const list = <T extends string>(name: string, fallback: string): T[] => (process.env[name] ?? fallback).split(',').map((x) => x.trim()).filter(Boolean) as T[];
const num = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);

const KINDS = list<NodeKind>('BENCH_NODE_KINDS', 'bitcoind,litecoind');
const ENGINES = list<Engine>('BENCH_NODE_ENGINES', 'sqlite,postgres');
const NOTIFY = list<Notify>('BENCH_NODE_NOTIFY', 'zmq,poll');
const settings = {
  pollMs: num('BENCH_NODE_POLL_MS', 100),
  prefill: num('BENCH_NODE_PREFILL', 100_000),
  liveMempool: num('BENCH_NODE_LIVE', 60_000),
  blockTxs: num('BENCH_NODE_BLOCK_TXS', 4_000),
  burstRate: num('BENCH_NODE_BURST_RATE', 100),
  burstSeconds: num('BENCH_NODE_BURST_S', 60),
  ...(process.env['BENCH_NODE_CPU_PROF'] ? { cpuProfDir: process.env['BENCH_NODE_CPU_PROF'] } : {}),
};

console.log(`mempool on real nodes: ${cpus().length} × ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`);
console.log(`settings: ${JSON.stringify(settings)}`);
const results: RunFigures[] = [];
for (const kind of KINDS) {
  const nut = await startNodeUnderTest(kind);
  try {
    const maker = new SpendMaker(nut.params);
    const burstCount = settings.burstRate * settings.burstSeconds;
    let t = performance.now();
    const coins = await fundCoins(nut.node, maker, settings.prefill + burstCount);
    const watchedScripts = Array.from({ length: 64 }, () => freshScript());
    const sign = (i: number): SignedTx => {
      const tx = maker.pay(coins[i]!, watchedScripts[i % watchedScripts.length]!, 400n + BigInt((i * 7919) % 4000));
      return { txid: tx.txid, hex: Buffer.from(tx.raw).toString('hex') };
    };
    const signed = coins.map((_, i) => sign(i));
    console.log(`${kind}: ${coins.length} coins funded and their spends signed in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    const watched = watchedScripts.map((script) => nut.address(script));
    for (const engine of ENGINES) {
      for (const notify of NOTIFY) {
        if (notify === 'zmq' && !nut.node.zmqUrl) continue;
        const figures = await runConfig(nut, signed.slice(0, settings.prefill), signed.slice(settings.prefill), watched, { ...settings, engine, notify });
        printRun(figures);
        results.push(figures);
      }
    }
  } finally {
    await nut.node.stop();
  }
}
const dir = join(process.cwd(), '.bench-cache');
mkdirSync(dir, { recursive: true });
const out = join(dir, `mempool-node-results-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(out, JSON.stringify({ settings, results }, null, 1));
console.log(`figures as JSON: ${out}`);
endAfterFigures();
