/**
 * The soak (`npm run bench:soak -- --minutes 30`, not part of CI): `outpoint serve` on SQLite over a litecoind
 * regtest node, with a steady v2 + v3 request load and pusher-js clients subscribed to blocks and addresses, while
 * the node churns (a payment every second, a block every 25 s). Every 10 s: the serve process's RSS, heap and
 * event-loop delay p99, and the requests and realtime events so far. At the end: the table, the slopes of RSS, heap
 * and event-loop delay over the run after a 2-minute warm-up, and every failed request (the soak wants none).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from '../../test/helpers/free-port.js';
import { pusherClient, connected, subscribed, type Pusher } from '../../test/helpers/pusher-clients.js';
import { startLitecoind } from '../../test/helpers/regtest-node.js';
import { ServeProcess } from '../scale/serve-process.js';
import { percentile, startLoad, type LoadTargets } from './soak-load.js';
import { metricsSample, rssMiB, slope, type Sample } from './soak-samples.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const MINUTES = arg('minutes', 30);
const RATE = arg('rate', 20);
const CLIENTS = arg('clients', 20);
const WARMUP_S = Math.min(120, (MINUTES * 60) / 4);
const ROOT = new URL('../..', import.meta.url).pathname;

async function cli(config: string, ...args: string[]): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['bin/outpoint.js', ...args, '--config', config], { cwd: ROOT });
  return stdout + stderr;
}

async function main(): Promise<void> {
  const node = await startLitecoind({ funded: true });
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-soak-'));
  const port = await freePort();
  const configPath = join(dir, 'outpoint.toml');
  const serve = new ServeProcess({
    configPath, storeUrl: `sqlite:${join(dir, 'store.db')}`, dataDir: join(dir, 'data'), httpPort: port, rpcUrl: node.rpcUrl,
    pollMs: 200, logPath: join(dir, 'serve.log'), network: 'LTCTEST',
  });
  const clients: Pusher[] = [];
  let failed = false;
  try {
    while (!(await fetch(`${serve.baseUrl}/ready/LTCTEST`).then((r) => r.ok, () => false))) await delay(200);
    await cli(configPath, 'plans', 'set', 'soak', '--max-daily-requests', '1000000000');
    const key = /API key \(shown once, store it now\): (opk_[A-Za-z0-9_-]{43})/.exec(await cli(configPath, 'accounts', 'create', '--email', 'soak@example.com', '--plan', 'soak'))![1]!;
    const targets: LoadTargets = { addresses: [], txids: [] };
    for (let i = 0; i < 10; i++) targets.addresses.push(await node.newAddress(i % 2 === 0 ? 'bech32' : 'legacy'));
    let events = 0;
    for (let i = 0; i < CLIENTS; i++) {
      const client = pusherClient(port, 'outpoint');
      clients.push(client);
      await connected(client);
      (await subscribed(client, 'blockchain_update_ltctest')).bind_global(() => events++);
      (await subscribed(client, `address_ltctest_${targets.addresses[i % targets.addresses.length]!}`)).bind_global(() => events++);
    }
    const pid = serve.pid;
    console.log(`soak: ${MINUTES} min, ${RATE} req/s (v2 + v3), ${CLIENTS} pusher-js clients, a payment a second, a block every 25 s`);
    const started = Date.now();
    const load = startLoad(serve.baseUrl, key, RATE, targets);
    const samples: Sample[] = [];
    let payments = 0;
    let refused = 0;
    const pending: { txid: string; at: number }[] = [];
    let blocks = 0;
    let nextSample = 10;
    let nextBlock = 25;
    while ((Date.now() - started) / 1000 < MINUTES * 60) {
      const at = (Date.now() - started) / 1000;
      // Churn: a payment to one of the watched addresses each second; blocks confirm them.
      // Asked for once the index has had 3 s to see it (the node's poll is 200 ms): the soak checks the service, not
      // how fast a client may ask for a tx it just sent.
      const txid = await node.send(targets.addresses[payments % targets.addresses.length]!, '0.001');
      // The wallet returns a txid even when the node's mempool refused the tx (too-long-mempool-chain once the
      // wallet's unconfirmed change chain passes 25 between blocks): such a tx is unknown to the node, so a 404
      // for it is the right answer, not a failure. Only txs the node took are asked for.
      if (await node.rpc.call('getmempoolentry', [txid]).then(() => true, () => false)) pending.push({ txid, at });
      else refused++;
      while (pending.length > 0 && pending[0]!.at <= at - 3) targets.txids.push(pending.shift()!.txid);
      if (targets.txids.length > 200) targets.txids.shift();
      payments++;
      if (at >= nextBlock) {
        await node.mine(1);
        blocks++;
        nextBlock += 25;
      }
      if (at >= nextSample) {
        const m = await metricsSample(serve.baseUrl);
        samples.push({ at: Math.round(at), rssMiB: rssMiB(pid), heapMiB: m.heapMiB, loopP99Ms: m.loopP99Ms, requests: load.stats.requests, failures: load.stats.failures.length, events });
        const s = samples.at(-1)!;
        console.log(`${String(s.at).padStart(5)} s  rss ${s.rssMiB.toFixed(1)} MiB  heap ${s.heapMiB.toFixed(1)} MiB  loop p99 ${s.loopP99Ms.toFixed(1)} ms  requests ${s.requests}  failed ${s.failures}  events ${s.events}`);
        nextSample += 10;
      }
      await delay(Math.max(0, 1000 - ((Date.now() - started) % 1000)));
    }
    await load.stop();
    report(samples, load.stats, payments, refused, blocks, events);
    failed = load.stats.failures.length > 0;
  } finally {
    for (const client of clients) client.disconnect();
    await serve.stop();
    await node.stop();
    // Kept when a request failed: serve.log tells what the service did meanwhile.
    if (failed) console.log(`kept for inspection: ${dir} (serve.log)`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

function report(samples: Sample[], stats: ReturnType<typeof startLoad>['stats'], payments: number, refused: number, blocks: number, events: number): void {
  const steady = samples.filter((s) => s.at >= WARMUP_S);
  const perHour = (pick: (s: Sample) => number) => slope(steady.map((s) => [s.at / 3600, pick(s)] as const));
  const range = (pick: (s: Sample) => number) => `${Math.min(...steady.map(pick)).toFixed(1)}–${Math.max(...steady.map(pick)).toFixed(1)}`;
  console.log(`\nafter the ${WARMUP_S} s warm-up (${steady.length} samples):`);
  console.log(`  RSS ${range((s) => s.rssMiB)} MiB, slope ${perHour((s) => s.rssMiB).toFixed(2)} MiB/hour`);
  console.log(`  heap used ${range((s) => s.heapMiB)} MiB, slope ${perHour((s) => s.heapMiB).toFixed(2)} MiB/hour`);
  console.log(`  event-loop delay p99 ${range((s) => s.loopP99Ms)} ms, slope ${perHour((s) => s.loopP99Ms).toFixed(2)} ms/hour`);
  console.log(`requests ${stats.requests} (p50 ${percentile(stats.latenciesMs, 50).toFixed(1)} ms, p99 ${percentile(stats.latenciesMs, 99).toFixed(1)} ms), failed ${stats.failures.length}`);
  console.log(`churn: ${payments} payments (${refused} refused by the node's mempool, not asked for), ${blocks} blocks; realtime events received by the clients: ${events}`);
  for (const f of stats.failures) console.log(`  FAILED ${f.status} ${f.path}: ${f.body}`);
}

await main();
