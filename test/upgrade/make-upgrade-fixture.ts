/**
 * Makes the upgrade fixture with an OLD version's own code (run by scripts/make-upgrade-fixture.sh, which checks the
 * tag out into WORKTREE and builds it): `node --import tsx test/upgrade/make-upgrade-fixture.ts WORKTREE OUTDIR TAG`.
 * Everything written to the stores goes through the old version's CLI and `outpoint serve` (processes of WORKTREE's
 * bin/outpoint.js); this checkout only provides the regtest node, PostgreSQL and the exchange stand-in.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { FixtureExchange, startFakeExchange } from '../helpers/fake-exchange.js';
import { startPostgres } from '../helpers/postgres-server.js';
import { startLitecoind, waitFor } from '../helpers/regtest-node.js';
import { startServe } from '../helpers/serve-process.js';
import { pgTool, type Engine, type EngineExpected, type UpgradeExpected } from './upgrade-fixture.js';

const [worktree, outDir, tag] = process.argv.slice(2) as [string, string, string];
if (!worktree || !outDir || !tag) throw new Error('usage: make-upgrade-fixture.ts WORKTREE OUTDIR TAG');
const run = promisify(execFile);
const SECRET_KEY = '5'.repeat(64);
const work = mkdtempSync(join(tmpdir(), 'outpoint-upgrade-fixture-'));

/** The old version's CLI; its stdout. */
async function cli(config: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [join(worktree, 'bin', 'outpoint.js'), ...args, '--config', config], { cwd: worktree, env: { ...process.env, OUTPOINT_MARKET_SOURCES: '' } });
  return stdout;
}

const keyOf = (stdout: string): string => /API key \(shown once, store it now\): (\S+)/.exec(stdout)?.[1] ?? '';
const get = async (url: string, headers: Record<string, string> = {}) => (await fetch(url, { headers })).json() as Promise<{ status: string; data: Record<string, unknown> }>;

const node = await startLitecoind({ funded: true });
const postgres = await startPostgres();
const kraken = new FixtureExchange('kraken');
const exchange = await startFakeExchange(kraken.reply);
try {
  // The chain: payments to each address type (of a second wallet, so the paying one never spends them), a second
  // payment to one of them, a few blocks on top.
  const payee = await node.createWallet('payee');
  const paid: string[] = [];
  for (const type of ['legacy', 'p2sh-segwit', 'bech32']) paid.push(await payee.call<string>('getnewaddress', ['', type]));
  const txid = await node.send(paid[0]!, '1.5');
  await node.send(paid[1]!, '0.25');
  await node.send(paid[2]!, '0.75');
  await node.mine(1);
  const paymentHeight = await node.rpc.call<number>('getblockcount');
  await node.send(paid[2]!, '0.125');
  await node.mine(2);
  const height = await node.rpc.call<number>('getblockcount');
  const tip = { height, hash: await node.rpc.call<string>('getblockhash', [height]) };

  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE outpoint_upgrade');
  await admin.end();
  const stores: Record<Engine, string> = { sqlite: `sqlite:${join(work, 'sqlite', 'outpoint.db')}`, postgres: postgres.urlFor('outpoint_upgrade') };
  const engines: Partial<Record<Engine, EngineExpected>> = {};
  for (const engine of ['sqlite', 'postgres'] as const) {
    const url = stores[engine];
    mkdirSync(join(work, engine), { recursive: true });
    const config = join(work, `${engine}.toml`);
    writeFileSync(config, `data_dir = "${join(work, engine)}"\n[store]\nurl = "${url}"\n[accounts]\nsecret_key = "${SECRET_KEY}"\n[http]\nrate_limit_per_second = 0\n` +
      `[market]\nsources = ["kraken"]\ninterval_ms = 1000\nkraken_url = "${exchange.url}"\n[networks.LTCTEST]\nchain = "regtest"\nrpc_url = "${node.rpcUrl}"\npoll_ms = 100\n`);
    await cli(config, 'plans', 'set', 'gold', '--max-daily-requests', '5000', '--max-concurrent-requests', '8');
    await cli(config, 'plans', 'set', 'free', '--max-daily-requests', '100');
    const alice = [keyOf(await cli(config, 'accounts', 'create', '--email', 'alice@example.com', '--plan', 'gold'))];
    alice.push(keyOf(await cli(config, 'keys', 'create', '--email', 'alice@example.com', '--name', 'ci')));
    const bob = [keyOf(await cli(config, 'accounts', 'create', '--email', 'bob@example.com', '--plan', 'free'))];
    bob.push(keyOf(await cli(config, 'keys', 'create', '--email', 'bob@example.com')));
    await cli(config, 'keys', 'revoke', '--prefix', bob[0]!.slice(0, 12));

    const serve = await startServe(config, { command: { argv: [process.execPath, join(worktree, 'bin', 'outpoint.js')], cwd: worktree }, env: { OUTPOINT_MARKET_SOURCES: 'kraken' } });
    const day = new Date().toISOString().slice(0, 10);
    let answered: Pick<EngineExpected, 'balances' | 'shorts' | 'prices'>;
    try {
      await waitFor(async () => {
        const info = (await get(`${serve.url}/api/v2/get_info/LTCTEST`)).data;
        return info['blocks'] === height && info['syncing'] === false;
      }, 60_000, 'the old version indexed the chain (initial sync done)');
      for (let i = 0; i < 7; i++) await get(`${serve.url}/api/v3/balance/LTCTEST/${paid[0]}`, { 'API-KEY': alice[i % 2]! });
      for (let i = 0; i < 3; i++) await get(`${serve.url}/api/v3/network_info/LTCTEST`, { 'API-KEY': bob[1]! });
      const shorts = [];
      for (const address of paid.slice(0, 2)) shorts.push({ address, short: String((await get(`${serve.url}/api/v2/short/LTCTEST/${address}`)).data['short']) });
      let prices: EngineExpected['prices'] = [];
      await waitFor(async () => {
        const data = (await get(`${serve.url}/api/v2/get_price/BTC/USD`)).data as { prices: { price: string; price_base: string; exchange: string }[] };
        prices = data.prices.map((p) => ({ coin: 'BTC', base: p.price_base, exchange: p.exchange, price: p.price }));
        return prices.length > 0;
      }, 30_000, 'a polled price');
      const balances = [];
      for (const address of paid) {
        const reply = await get(`${serve.url}/api/v2/get_address_balance/LTCTEST/${address}`);
        if (reply.status !== 'success') throw new Error(`${engine}: get_address_balance ${address}: ${JSON.stringify(reply)}`);
        balances.push({ address, confirmed: String(reply.data['confirmed_balance']) });
      }
      answered = { balances, shorts, prices };
    } finally {
      await serve.stop(); // SIGTERM: the usage counted in memory is written to the store on the way out
    }
    const keys = (all: string[], revoked: number[]) => all.map((key, i) => ({ key, prefix: key.slice(0, 12), revoked: revoked.includes(i) }));
    engines[engine] = {
      ...answered,
      accounts: [{ email: 'alice@example.com', plan: 'gold', keys: keys(alice, []) }, { email: 'bob@example.com', plan: 'free', keys: keys(bob, [0]) }],
      usage: [{ email: 'alice@example.com', day, requests: 7 }, { email: 'bob@example.com', day, requests: 3 }],
    };
  }
  const expected: UpgradeExpected = {
    version: tag, madeAt: Math.floor(Date.now() / 1000), secretKey: SECRET_KEY, tip, payment: { txid, height: paymentHeight },
    plans: [{ name: 'free', maxDailyRequests: 100, maxConcurrentRequests: 0 }, { name: 'gold', maxDailyRequests: 5000, maxConcurrentRequests: 8 }],
    engines: { sqlite: engines.sqlite!, postgres: engines.postgres! },
  };

  mkdirSync(outDir, { recursive: true });
  const blocks: string[] = [];
  for (let h = 1; h <= height; h++) blocks.push(await node.rpc.call<string>('getblock', [await node.rpc.call<string>('getblockhash', [h]), 0]));
  writeFileSync(join(outDir, 'blocks.json.gz'), gzipSync(JSON.stringify(blocks), { level: 9 }));
  writeFileSync(join(outDir, 'store.sqlite.gz'), gzipSync(readFileSync(join(work, 'sqlite', 'outpoint.db')), { level: 9 }));
  const { stdout: dump } = await run(pgTool('pg_dump'), ['--no-owner', '--no-privileges', '--format=plain', stores.postgres], { maxBuffer: 1 << 28 });
  writeFileSync(join(outDir, 'store.postgres.sql.gz'), gzipSync(dump, { level: 9 }));
  writeFileSync(join(outDir, 'expected.json'), `${JSON.stringify(expected, null, 2)}\n`);
  process.stdout.write(`upgrade fixture of ${tag} in ${outDir}: tip ${tip.height} ${tip.hash}\n`);
} finally {
  await exchange.close();
  await node.stop();
  await postgres.stop();
  rmSync(work, { recursive: true, force: true });
}
