/**
 * Snapshot export/import and backup on the 100k-tx bench chain (make-chain.sh via bench-chain.ts's cache, copied:
 * the cache is never written), against the reference in the same run: the initial sync of the same chain from the
 * node by `outpoint serve` (spawn to the tip). Prints wall times and sizes; docs/benchmarks.md records them.
 *   node --import tsx bench/snapshot.bench.ts
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { RpcClient } from '../src/node/rpc/rpc-client.js';
import { freePort } from '../test/helpers/free-port.js';
import { CliConfigs, runCli } from '../test/helpers/outpoint-cli.js';
import { startPostgres } from '../test/helpers/postgres-server.js';
import { httpJson, startServe } from '../test/helpers/serve-process.js';

const NTX = Number(process.env['OUTPOINT_BENCH_NTX'] ?? 100_000);
const CHAIN = process.env['OUTPOINT_BENCH_CHAIN_DIR'] ?? new URL(`../.bench-cache/chain-${NTX}`, import.meta.url).pathname;
const LITECOIND = process.env['LITECOIND'] ?? '/usr/lib/litecoin/litecoind';

async function timed(what: string, args: string[]): Promise<number> {
  const started = performance.now();
  const result = await runCli(args);
  if (result.code !== 0) throw new Error(`${what}: ${result.stderr}`);
  return (performance.now() - started) / 1000;
}

if (!existsSync(join(CHAIN, 'chain-summary.json'))) throw new Error(`no bench chain in ${CHAIN}: run npm run bench:index once (or set OUTPOINT_BENCH_CHAIN_DIR)`);
const dir = mkdtempSync(join(tmpdir(), 'outpoint-snapbench-'));
const configs = new CliConfigs();
const rpcPort = await freePort();
cpSync(CHAIN, join(dir, 'chain'), { recursive: true });
const daemon = spawn(LITECOIND, [`-datadir=${join(dir, 'chain')}`, `-rpcport=${rpcPort}`, '-printtoconsole=0'], { stdio: 'ignore' });
const rpcUrl = `http://peer:peerpass@127.0.0.1:${rpcPort}/`;
const rpc = new RpcClient({ url: rpcUrl, retries: 0 });
const postgres = await startPostgres();
try {
  for (let i = 0; ; i++) {
    try {
      await rpc.call('getblockcount');
      break;
    } catch {
      if (i > 600) throw new Error('litecoind did not start');
      await delay(100);
    }
  }
  const height = await rpc.call<number>('getblockcount');
  const source = configs.write(`sqlite:${join(dir, 'source.db')}`, rpcUrl);
  const started = performance.now();
  const serve = await startServe(source, { readyPath: '/api/v2/get_info/LTCTEST' });
  for (;;) {
    const info = await httpJson(serve.port, '/api/v2/get_info/LTCTEST');
    if (info.body.data?.blocks === height && info.body.data?.syncing === false) break;
    await delay(200);
  }
  const sync = (performance.now() - started) / 1000;
  await serve.stop();
  // A copy of the synced index for experiments without the node (snapshot import --no-node-check).
  if (process.env['OUTPOINT_SNAPBENCH_KEEP']) cpSync(join(dir, 'source.db'), process.env['OUTPOINT_SNAPBENCH_KEEP']);

  const file = join(dir, 'ltctest.snapshot');
  const exportSqlite = await timed('export from SQLite', ['snapshot', 'export', '--network', 'LTCTEST', file, '--config', source]);
  const importSqlite = await timed('import into SQLite', ['snapshot', 'import', file, '--config', configs.write(`sqlite:${join(dir, 'target.db')}`, rpcUrl)]);
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query('CREATE DATABASE snapbench');
  await admin.end();
  const pgConfig = configs.write(postgres.urlFor('snapbench'), rpcUrl);
  const importPg = await timed('import into PostgreSQL', ['snapshot', 'import', file, '--config', pgConfig]);
  const exportPg = await timed('export from PostgreSQL', ['snapshot', 'export', '--network', 'LTCTEST', join(dir, 'pg.snapshot'), '--config', pgConfig]);
  const backup = await timed('backup', ['backup', join(dir, 'accounts.backup'), '--config', source]);

  const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
  console.log(`chain: ${NTX} txs, height ${height}; SQLite index ${mb(statSync(join(dir, 'source.db')).size)} MiB`);
  console.log(`snapshot file: ${mb(statSync(file).size)} MiB (gzip level 3)`);
  console.log('step                                  seconds   vs initial sync');
  const line = (name: string, s: number): void => console.log(`${name.padEnd(38)}${s.toFixed(1).padStart(7)}   ${(s / sync).toFixed(2)}`);
  line('initial sync from the node (serve)', sync);
  line('snapshot export, SQLite', exportSqlite);
  line('snapshot import, into SQLite', importSqlite);
  line('snapshot import, into PostgreSQL', importPg);
  line('snapshot export, PostgreSQL', exportPg);
  line('backup (no accounts: fixed cost)', backup);
} finally {
  await rpc.call('stop').catch(() => undefined);
  rpc.close();
  await new Promise((resolve) => daemon.once('exit', resolve));
  await postgres.stop();
  configs.cleanup();
  rmSync(dir, { recursive: true, force: true });
}
