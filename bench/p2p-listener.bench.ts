/**
 * The P2P listener under load: PEERS synthetic peers on loopback (another process: bench/p2p-peers.child.ts) each
 * announcing the same RATE new transactions per second, against the real listener (PeerManager) and sightings
 * watcher in this process, with a real SQLite store as the index. Printed: CPU of this process (ms per wall second,
 * i.e. thousandths of one core), µs per announcement (one inv entry from one peer), live heap growth (after a GC) and
 * the process's RSS, and the sizes of the bounded structures. Three runs:
 *   idle        every peer connected, nothing announced (the floor: pings, timers)
 *   in mempool  steady state: our node's mempool takes each tx as peers announce it (a tx_accepted event per tx, as
 *               the indexer publishes), so nothing is fetched; announcements are bookkeeping only
 *   peer-only   worst case: our node never gets them, so every tx is fetched (getdata), parsed, and checked against
 *               the store for conflicts, and the peer-only pool fills to its bound
 * Reference in the same run: parsing one of the same transactions with the chains parser (µs), so the per-announcement
 * figures read as a ratio that holds across machines.
 *
 *   npm run bench:p2p      (BENCH_P2P_PEERS, BENCH_P2P_RATE, BENCH_P2P_SECONDS override 8, 1000, 30)
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { getNetworkParams } from '../src/chains/networks.js';
import { parseTransaction } from '../src/chains/parsing.js';
import { MemoryEventBus, silentLogger, type NetworkId } from '../src/core/index.js';
import { TxSightingsWatcher } from '../src/indexer/sightings/tx-sightings-watcher.js';
import { PeerManager } from '../src/p2p/peer-manager.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { syntheticTxs } from './p2p-synthetic-txs.js';

const PEERS = Number(process.env['BENCH_P2P_PEERS'] ?? 8);
const RATE = Number(process.env['BENCH_P2P_RATE'] ?? 1000);
const SECONDS = Number(process.env['BENCH_P2P_SECONDS'] ?? 30);
const NET: NetworkId = 'LTCTEST';
const params = getNetworkParams(NET, 'regtest');
const MiB = 1024 * 1024;

type Mode = 'idle' | 'in mempool' | 'peer-only';

/** The child's JSON lines, one at a time. */
class ChildLines {
  private readonly lines: Interface;
  private readonly queue: Record<string, unknown>[] = [];
  private waiting: ((line: Record<string, unknown>) => void) | null = null;

  constructor(readonly child: ChildProcessByStdio<Writable, Readable, null>) {
    this.lines = createInterface({ input: child.stdout });
    this.lines.on('line', (line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (this.waiting) {
        const wake = this.waiting;
        this.waiting = null;
        wake(parsed);
      } else this.queue.push(parsed);
    });
  }

  next(): Promise<Record<string, unknown>> {
    const queued = this.queue.shift();
    return queued ? Promise.resolve(queued) : new Promise((resolve) => (this.waiting = resolve));
  }
}

function startPeers(seconds: number, serve: boolean): ChildLines {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./p2p-peers.child.ts', import.meta.url).pathname, String(PEERS), String(RATE), String(seconds), params.p2pMagic, serve ? '1' : '0'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new ChildLines(child);
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

async function measure(mode: Mode, store: SqliteStore, referenceUs: number): Promise<void> {
  const seconds = mode === 'idle' ? 10 : SECONDS;
  const peers = startPeers(mode === 'idle' ? 0 : seconds, mode === 'peer-only');
  const { addresses } = (await peers.next()) as { addresses: string[] };
  const bus = new MemoryEventBus();
  const watcher = new TxSightingsWatcher({ network: NET, mweb: true, reader: store.network(NET), bus, logger: silentLogger });
  const manager = new PeerManager({
    magic: params.p2pMagic, protocolVersion: params.p2pProtocolVersion, defaultPort: params.defaultP2pPort, witness: true, mweb: true,
    configured: addresses, discovery: null, targetPeers: PEERS, userAgent: '/Outpoint:bench/', events: watcher, logger: silentLogger,
  });
  watcher.attach(manager);
  watcher.start();
  manager.start();
  await peers.next(); // every peer connected
  while (manager.peers().length < PEERS) await new Promise((resolve) => setTimeout(resolve, 10));
  // In steady state our node's mempool takes each tx about when peers announce it: the indexer's events, on time.
  const mempool = mode === 'in mempool' ? syntheticTxs(RATE * seconds) : [];
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let accepted = 0;
  const feeding = setInterval(() => {
    const due = Math.min(mempool.length, Math.round(((performance.now() - started) / 1000) * RATE));
    for (; accepted < due; accepted++) {
      const tx = mempool[accepted]!;
      bus.publish({ kind: 'tx_accepted', network: NET, tx, seenAt: 0, inputValue: null, deltas: [], mempoolSize: accepted, prevouts: null });
    }
  }, 20);
  let announced = 0;
  if (mode === 'idle') await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  else {
    peers.child.stdin.write('go\n');
    announced = ((await peers.next()) as { done: number }).done * PEERS;
    // Requests due 0.5 s after the last announcements, and their answers.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  }
  clearInterval(feeding);
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  gc();
  const heapGrowth = (process.memoryUsage().heapUsed - heapBefore) / MiB;
  const rss = process.memoryUsage().rss / MiB;
  const stats = watcher.stats;
  peers.child.stdin.write('stop\n');
  await manager.stop();
  await watcher.stop();
  await new Promise((resolve) => peers.child.once('exit', resolve));
  const perAnnouncement = announced > 0 ? (cpuMs * 1000) / announced : 0;
  console.log(
    `  ${mode.padEnd(10)} ${(cpuMs / (wallMs / 1000)).toFixed(0).padStart(4)} ms CPU/s` +
      (announced > 0 ? `   ${perAnnouncement.toFixed(1)} µs/announcement = ${(perAnnouncement / referenceUs).toFixed(1)} × a tx parse` : '') +
      `   heap +${heapGrowth.toFixed(1)} MiB (RSS ${rss.toFixed(0)} MiB)` +
      `   book ${stats.announced}  peer-only ${stats.peerOnly}  fetching ${stats.fetching}`,
  );
}

/** µs to parse one of the synthetic transactions: the reference the per-announcement cost is compared with. */
function parseReference(): number {
  const raws = syntheticTxs(20_000).map((t) => t.raw);
  for (const raw of raws.slice(0, 2_000)) parseTransaction(raw, { mweb: true });
  const started = performance.now();
  for (let round = 0; round < 5; round++) for (const raw of raws) parseTransaction(raw, { mweb: true });
  return ((performance.now() - started) * 1000) / (raws.length * 5);
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'outpoint-bench-p2p-'));
  const store = new SqliteStore({ path: join(dir, 'store.db') });
  await store.migrate();
  try {
    const reference = parseReference();
    console.log(`p2p listener: ${PEERS} peers on loopback, ${RATE} new txs/s announced by each (${PEERS * RATE} announcements/s), ${SECONDS} s; reference: parsing one tx ${reference.toFixed(2)} µs`);
    for (const mode of ['idle', 'in mempool', 'peer-only'] as const) await measure(mode, store, reference);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
