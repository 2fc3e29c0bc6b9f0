/**
 * Bytes on disk per transaction, by table and index, of a SQLite index of the make-chain.sh chain
 * (OUTPOINT_BENCH_NTX transactions, default 100,000; bench-chain.ts makes and caches it), for each script-key width
 * (DISK_BENCH_KEY_BITS, default "53,47": a store made before meta.script_key_bits, and one made now) with
 * `[store] raw_txs` = DISK_BENCH_RAW_TXS (default "node"). Each index is built from empty by the real NetworkIndexer
 * (its bulk initial sync) from litecoind, then copied with VACUUM INTO (full pages, as after a long life of page
 * reuse is not: the lower bound a store reaches) and measured with dbstat. Prints figures, asserts nothing.
 * docs/benchmarks.md, "Disk per transaction".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryEventBus, silentLogger } from '../src/core/index.js';
import { NetworkIndexer } from '../src/indexer/network-indexer.js';
import { NodeClient } from '../src/node/rpc/node-client.js';
import { RpcChainSource } from '../src/node/rpc-chain-source.js';
import { openSqliteDatabase } from '../src/store/sqlite/connection/sqlite-binding.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { benchParams, chainNode, NTX } from './bench-chain.js';
import { sqliteSizes } from './scale/store-sizes.js';

const WIDTHS = (process.env['DISK_BENCH_KEY_BITS'] ?? '53,47').split(',').map(Number);
const RAW_TXS = (process.env['DISK_BENCH_RAW_TXS'] ?? 'node') as 'node' | 'store';

interface Measured {
  readonly bits: number;
  readonly txs: number;
  readonly seconds: number;
  readonly bytes: Map<string, number>;
  readonly file: number;
}

async function measure(bits: number, node: Awaited<ReturnType<typeof chainNode>>, dir: string): Promise<Measured> {
  const path = join(dir, `index-${bits}.db`);
  const first = new SqliteStore({ path, rawTxs: RAW_TXS });
  await first.migrate();
  await first.close();
  // The width a store records is read when it first keys a script: set it before anything is indexed.
  const meta = openSqliteDatabase(path);
  meta.prepare("UPDATE meta SET value = ? WHERE key = 'script_key_bits'").run(String(bits));
  meta.close();
  const store = new SqliteStore({ path, rawTxs: RAW_TXS });
  const network = store.network('LTCTEST');
  const indexer = new NetworkIndexer({ params: benchParams, source: new RpcChainSource(new NodeClient(node.rpc)), store: network, bus: new MemoryEventBus(), logger: silentLogger });
  const started = process.hrtime.bigint();
  const best = await node.rpc.call<string>('getbestblockhash');
  for (let i = 0; i < 100 && (await network.getTip())?.hash !== best; i++) await indexer.syncOnce();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await store.close();
  const packed = join(dir, `packed-${bits}.db`);
  const db = openSqliteDatabase(path);
  db.exec(`VACUUM INTO '${packed}'`);
  db.close();
  const copy = openSqliteDatabase(packed, { readonly: true });
  const txs = Number((copy.prepare('SELECT count(*) AS n FROM txs_ltctest').get() as { n: number }).n);
  copy.close();
  // Per table and index from dbstat, as the scale bench measures its stores.
  const sizes = sqliteSizes(packed);
  const bytes = new Map(sizes.filter((r) => r.bytes > 0).map((r) => [r.name, r.bytes]));
  const file = sizes.reduce((a, r) => a + r.bytes, 0);
  return { bits, txs, seconds, bytes, file };
}

async function main(): Promise<void> {
  const node = await chainNode();
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-disk-bench-'));
  try {
    const runs: Measured[] = [];
    for (const bits of WIDTHS) {
      runs.push(await measure(bits, node, dir));
      const r = runs.at(-1)!;
      console.log(`${bits}-bit script keys: ${r.txs} txs indexed in ${r.seconds.toFixed(1)} s, ${(r.file / r.txs).toFixed(1)} B/tx after VACUUM INTO`);
    }
    const names = [...new Set(runs.flatMap((r) => [...r.bytes.keys()]))]
      .filter((name) => runs.some((r) => (r.bytes.get(name) ?? 0) / r.txs >= 0.5))
      .sort((a, b) => (runs[0]!.bytes.get(b) ?? 0) - (runs[0]!.bytes.get(a) ?? 0));
    console.log(`\nB/tx by table and index, raw_txs = "${RAW_TXS}", ${runs[0]!.txs} txs (make-chain.sh chain of ${NTX})`);
    console.log(['table or index'.padEnd(34), ...runs.map((r) => `${r.bits}-bit`.padStart(9))].join(''));
    for (const name of [...names, 'all']) {
      const cells = runs.map((r) => ((name === 'all' ? r.file : (r.bytes.get(name) ?? 0)) / r.txs).toFixed(1).padStart(9));
      console.log([name.padEnd(34), ...cells].join(''));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await node.stop();
  }
}

await main();
