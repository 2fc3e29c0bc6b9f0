/**
 * What storing a mempool tx costs the SQLite store, by write size (issue 47): BENCH_MEMPOOL_WRITE_TXS (100000) txs, each
 * spending a confirmed coin of its own script and paying one of 64 hot scripts and change to a new script (the shape
 * of bench:mempool-node's txs), stored with the store's own addMempoolTxs in writes of each size of
 * BENCH_MEMPOOL_WRITE_SIZES (50,250,1000,5000; the indexer writes 50-250, fitted to 20 ms of the event loop), each
 * size into a new store. Prints per tx: wall time, the process's user and system CPU (the checkpoint worker's included),
 * and the bytes it wrote to the disk (/proc/self/io write_bytes: the log at each commit and the checkpoints' copies).
 *   npm run bench:mempool-write
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { block, coinbase, p2pkh, spend } from '../src/store/conformance/block-builder.js';

const TXS = Number(process.env['BENCH_MEMPOOL_WRITE_TXS'] ?? 100_000);
const SIZES = (process.env['BENCH_MEMPOOL_WRITE_SIZES'] ?? '50,250,1000,5000').split(',').map(Number);
const COINS_PER_BLOCK = 5_000;

const writtenBytes = (): number => Number(/write_bytes: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);

async function run(size: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-mempool-write-'));
  try {
    const store = new SqliteStore({ path: join(dir, 'index.sqlite'), cacheMb: 256 });
    await store.migrate();
    const net = store.network('BTCTEST');
    const coins: { txid: string; vout: number }[] = [];
    let prev = '0'.repeat(64);
    for (let height = 0; height * COINS_PER_BLOCK < TXS; height++) {
      const paid = coinbase(Array.from({ length: COINS_PER_BLOCK }, (_, i) => ({ script: p2pkh(10_000_000 + height * COINS_PER_BLOCK + i), value: 100_000n })));
      const made = block(prev, [paid], 1_600_000_000 + height * 60);
      prev = made.header.hash;
      await net.connectBlocks([{ height, block: made }]);
      for (let i = 0; i < COINS_PER_BLOCK; i++) coins.push({ txid: paid.txid, vout: i });
    }
    const txs = coins.slice(0, TXS).map((coin, i) => spend([coin], [{ script: p2pkh(i % 64), value: 50_000n }, { script: p2pkh(20_000_000 + i), value: 40_000n }]));
    const started = performance.now();
    const cpu = process.cpuUsage();
    const bytes = writtenBytes();
    for (let i = 0; i < txs.length; i += size) await net.addMempoolTxs(txs.slice(i, i + size).map((tx) => ({ tx, seenAt: 1 })));
    const used = process.cpuUsage(cpu);
    const perTx = (x: number): string => (x / TXS).toFixed(0);
    console.log(`writes of ${size}: ${perTx((performance.now() - started) * 1000)} µs a tx (user ${perTx(used.user)}, system ${perTx(used.system)}), `
      + `${((writtenBytes() - bytes) / TXS / 1024).toFixed(1)} KiB written a tx`);
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`${TXS} mempool txs into the SQLite store, by write size`);
for (const size of SIZES) await run(size);
