/**
 * A fresh start answers as an initial sync from its first request (issue 33), on both engines: `outpoint serve` on an
 * empty store, polled from before it is spawned. Its node hangs at first, so the process listens while the indexer
 * has not written any sync status (it waits for the node): this window used to answer as an empty, caught-up chain
 * (get_address_balance 200 "0.00000000", get_info `blocks 0, syncing false`). Every balance answered before the tip
 * must be a 503 with Retry-After, every get_info before it must say `syncing`, /ready must say `initial_sync`; once
 * the node answers, the index loads and the same requests answer the real balance.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../helpers/free-port.js';
import { startLitecoind, waitFor, type RegtestNode } from '../helpers/regtest-node.js';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';
import { StoreEngines, testEngines } from '../helpers/store-engines.js';
import { SwitchProxy } from '../helpers/switch-proxy.js';

let ltc: RegtestNode;
let funded: string;
const engines = new StoreEngines();

before(async () => {
  ltc = await startLitecoind({ funded: true });
  funded = await ltc.newAddress('bech32');
  await ltc.send(funded, '1.5');
  await ltc.mine(5);
});

after(async () => {
  await ltc?.stop();
  await engines.close();
});

interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked field by field
  readonly body: any;
}

/** GETs each path in turn every few ms from before the process exists; connection errors (not listening yet) are skipped. */
class Poller {
  readonly answers = new Map<string, Answer[]>();
  private running = true;
  private readonly done: Promise<void>;

  constructor(port: number, paths: readonly string[]) {
    for (const path of paths) this.answers.set(path, []);
    this.done = (async () => {
      while (this.running) {
        for (const path of paths) {
          const answer = await fetch(`http://127.0.0.1:${port}${path}`)
            .then(async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.json() }))
            .catch(() => null);
          if (answer) this.answers.get(path)!.push(answer);
        }
        await delay(20);
      }
    })();
  }

  count(path: string): number {
    return this.answers.get(path)!.length;
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }
}

for (const engine of testEngines()) {
  describe(`a fresh start (${engine})`, () => {
    let serve: ServeProcess | undefined;
    let proxy: SwitchProxy | undefined;
    let poller: Poller | undefined;

    after(async () => {
      await poller?.stop();
      await serve?.stop();
      await proxy?.close();
    });

    it('answers 503 + Retry-After from the first request until the index reaches the tip, never an empty chain', async () => {
      const test = await engines.create(engine);
      const tip = await ltc.rpc.call<number>('getblockcount');
      proxy = await SwitchProxy.start(ltc.rpcPort);
      proxy.set('hang');
      const rpcUrl = new URL(ltc.rpcUrl);
      rpcUrl.port = String(proxy.port);
      const config = join(ltc.datadir, `fresh-start-${engine}.toml`);
      writeFileSync(config, `[store]\nurl = "${test.url}"\n[http]\nrate_limit_per_second = 0\n` +
        `[health]\ncheck_interval_ms = 200\n[networks.LTCTEST]\nchain = "regtest"\nrpc_url = "${rpcUrl.toString()}"\npoll_ms = 100\n`);
      const port = await freePort();
      const balance = `/api/v2/get_address_balance/LTCTEST/${funded}`;
      const info = '/api/v2/get_info/LTCTEST';
      poller = new Poller(port, [balance, info, '/ready/LTCTEST']);
      serve = await startServe(config, { port, readyPath: '/health', env: { OUTPOINT_MARKET_SOURCES: '' } });

      // The node hangs: the process listens, its indexer waits for the node and has written nothing.
      const checked = (a: Answer): boolean => a.body.reason !== 'starting';
      await waitFor(async () => poller!.count(balance) >= 10 && poller!.answers.get('/ready/LTCTEST')!.some(checked), 30_000, 'answers while the node hangs');
      const whileHanging = poller.answers.get('/ready/LTCTEST')!.filter(checked);
      proxy.set('forward');
      await waitFor(async () => {
        const answers = poller!.answers.get(balance)!;
        const last = poller!.answers.get(info)!.at(-1);
        return answers.at(-1)?.status === 200 && last?.body.data.blocks === tip && last.body.data.syncing === false;
      }, 60_000, `the index at the node's tip ${tip}`).catch((error: Error) => {
        throw new Error(`${error.message}; last answers ${JSON.stringify([...poller!.answers.values()].map((a) => a.at(-1)))}; log: ${serve!.log.join('').slice(-3000)}`);
      });
      await poller.stop();

      const balances = poller.answers.get(balance)!;
      const early = balances.filter((a) => a.status !== 200);
      assert.ok(early.length >= 10, `${early.length} answers before the tip`);
      for (const a of early) {
        assert.equal(a.status, 503, JSON.stringify(a.body));
        assert.ok(Number(a.retryAfter) >= 5 && Number(a.retryAfter) <= 60, `Retry-After ${a.retryAfter}`);
        assert.match(a.body.data.network, /^index is syncing/);
      }
      const ready = balances.slice(balances.findIndex((a) => a.status === 200));
      for (const a of ready) assert.deepEqual([a.status, a.body.data.confirmed_balance], [200, '1.50000000'], 'a 200 only with the real balance');
      for (const a of poller.answers.get(info)!) {
        assert.equal(a.status, 200);
        if (a.body.data.syncing === false) assert.equal(a.body.data.blocks, tip, 'get_info says caught up only at the tip');
        else assert.ok(['loading', 'building-indexes', 'catching-up'].includes(a.body.data.syncing.phase), a.body.data.syncing.phase);
      }
      assert.deepEqual(whileHanging.map((a) => [a.status, a.body.reason]), whileHanging.map(() => [503, 'initial_sync']), '/ready before the first pass');
      const readiness = poller.answers.get('/ready/LTCTEST')!;
      assert.ok(readiness.every((a) => a.status === 503 || a.body.index_height === tip), 'ready only at the tip');
      assert.ok(!readiness.some((a) => a.status === 503 && a.body.reason !== 'initial_sync' && a.body.reason !== 'starting' && a.body.reason !== 'node_unreachable'));
    });
  });
}
