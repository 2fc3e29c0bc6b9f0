/**
 * NetworkStore over PostgreSQL. Reads use the shared pool; writes go through one dedicated session that holds a
 * session advisory lock for this network. A second indexer for the same network gets WriterStandbyError from every
 * write (its indexer stands by and tries again) and takes over once the holder's session ends. A writer whose session
 * ended (killed, database restarted, connection lost) opens a new one and must win the lock again before its next
 * write: no write ever goes through a session that does not hold the lock.
 */
import pg from 'pg';
import { WriterStandbyError } from '../../../core/domain/errors.js';
import type { NetworkId } from '../../../core/domain/network.js';
import type { RawTxSource } from '../../../core/sources/raw-txs.js';
import type { ChainTip } from '../../../core/domain/chain-types.js';
import type { BlockToConnect, ConnectedBlock, DisconnectedBlock, MempoolAddResult, MempoolEntry, MempoolRemoveReason } from '../../../core/store/chain-writes.js';
import type { BulkBuildStep, NetworkStore } from '../../../core/store/network-store.js';
import type { SyncStatus } from '../../../core/domain/sync-status.js';
import { RecentKeys } from '../../common/chain-writes/bulk-rows.js';
import { ScriptCache } from '../../common/chain-writes/script-cache.js';
import type { ChainStoreOptions } from '../../common/schema/store-options.js';
import { analyzedTables, BUILD_STEPS, type BuildRun } from './postgres-bulk-build.js';
import { BUILD_SETTINGS, poolSideSession } from './postgres-bulk-side.js';
import { beginBulkLoadTx, bulkEncodingTx, loadBlocksTx, loadEncodedTx, loadReleaseTx, resetChainTx } from './postgres-bulk-load.js';
import type { EncodedBulkBatch, EncodedRelease } from './postgres-bulk-encode.js';
import { rewindToHeld } from './postgres-bulk-held.js';
import { HeldOutputs } from './postgres-held-outputs.js';
import type { ScriptKeyParams } from '../../common/chain-writes/script-keys.js';
import { PlannedChainReads } from '../../common/chain-reads/planned-chain-reads.js';
import type { ChainReadPlans } from '../../common/chain-reads/chain-read-plans.js';
import { readBulkLoad, writeSyncStatus } from '../../common/schema/network-rows.js';
import type { Plan } from '../../common/sql/sql-plan.js';
import type { PostgresAddressReader } from './postgres-address-reader.js';
import { connectBlocksTx, disconnectTipTx } from './postgres-chain-writer.js';
import { addMempoolTxsTx } from './postgres-mempool-writer.js';
import { pruneRemovedMempool, removeMempoolTxs } from '../../common/chain-writes/mempool-removal.js';
import type { PostgresScriptSetReader } from './postgres-script-set-reader.js';
import { PgNet } from './postgres-net.js';
import { runPostgres } from '../connection/postgres-plans.js';
import { LOCK_NAMESPACE, one } from '../connection/postgres-sql.js';
import { createStagingTables } from './postgres-staging.js';
import { PgReadSide, type ReadSides } from './postgres-read-side.js';
import { buildScriptHashes } from './postgres-script-hashes.js';
import { PlannedScriptHashReader } from '../../common/chain-reads/planned-script-hash-reader.js';
import { ScriptHashPlans } from '../../common/chain-reads/script-hash-plans.js';
import type { ScriptHashIndexState } from '../../../core/store/script-hash-reads.js';

export class PostgresNetworkStore extends PlannedChainReads implements NetworkStore {
  private readonly n: PgNet;
  protected readonly netCode: number;
  protected readonly plans: ChainReadPlans;
  /** The API's reads: the primary's side, or a replica's inside a read scope ([store] read_urls). */
  private readonly reads: ReadSides;
  private writer: Promise<pg.Client> | null = null;
  /** Serializes writes: they share one session, and BEGIN/COMMIT must not interleave. */
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * Script rows between writes (this network's writer session only; see ScriptCache for the rules). Every change to
   * this network's script rows goes through the session holding the lock, so the cache is cleared only when a new
   * session takes the lock (another process may have written meanwhile) and when a block is disconnected.
   */
  private readonly scripts = new ScriptCache();
  /** Script rows a bulk load staged lately (bounded; see RecentKeys). */
  private recentScripts = new RecentKeys();
  /** The inline load's held outputs: none between its batches (capacity 0; the worker load holds them). */
  private readonly held = new HeldOutputs(0);
  readonly scriptHashes: PlannedScriptHashReader;

  /** `replicas`: the read sides of the store's replicas, given the primary's side (the store's router picks one). */
  constructor(
    readonly id: NetworkId,
    private readonly pool: pg.Pool,
    private readonly connectionString: string,
    options: ChainStoreOptions = {},
    replicas?: (primary: PgReadSide, n: PgNet) => ReadSides,
  ) {
    super();
    this.n = new PgNet(id, options);
    this.netCode = this.n.net;
    this.plans = this.n.reads;
    const primary = new PgReadSide(pool, this.n);
    this.reads = replicas ? replicas(primary, this.n) : { current: () => primary };
    this.scriptHashes = new PlannedScriptHashReader((plan) => this.read(plan), new ScriptHashPlans(this.n));
  }

  /** Only the network's writer builds (the writer lock first), on the primary, outside the writer's transactions. */
  async buildScriptHashIndex(): Promise<ScriptHashIndexState> {
    await this.claimWriter();
    return buildScriptHashes(this.pool, this.n);
  }

  /** Address reads of the side the current read scope picked. */
  protected get address(): PostgresAddressReader {
    return this.reads.current().address;
  }

  /** A wallet's reads, from the same side (each side keeps its own tx-id memo: a replica's tip may lag). */
  get scriptSets(): PostgresScriptSetReader {
    return this.reads.current().scriptSets;
  }

  protected read<T>(plan: Plan<T>): Promise<T> {
    return runPostgres(this.reads.current().pool, plan);
  }

  private async openWriter(): Promise<pg.Client> {
    // TCP keepalives on both ends: this process notices a dead connection, and the server ends the session of a
    // writer that vanished (host down, network cut) within ~30 s, which releases the lock for a standby.
    const client = new pg.Client({ connectionString: this.connectionString, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    client.on('error', () => undefined);
    await client.connect();
    // Assigned by write() before this first await returned.
    const opened = this.writer;
    client.once('end', () => {
      // The session is gone, and the lock with it: the next write opens a new session and competes for the lock again.
      if (this.writer === opened) this.writer = null;
    });
    const row = await one(client, 'SELECT pg_try_advisory_lock($1, $2) AS locked', [LOCK_NAMESPACE, this.n.net]);
    if (!row?.locked) {
      await client.end();
      throw new WriterStandbyError(this.id);
    }
    await client.query('SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 4');
    // Every statement of this session is driven by a batch's rows and probes the chain tables by index (one row or a
    // short range each), so its cost follows the batch, not the tables. The planner, which prices a random index probe
    // well above a sequential page and whose statistics lag behind tables that grow by every batch, would otherwise
    // hash or merge join whole tables (every unspent output, every script) for every batch, or take bitmap scans for
    // single rows. JIT compiling these statements (their estimated costs pass jit_above_cost) costs more than it saves.
    await client.query('SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_bitmapscan = off; SET jit = off');
    await createStagingTables(client, this.n.t);
    this.scripts.clear();
    return client;
  }

  async claimWriter(): Promise<void> {
    // A writer session (open or opening) is the lock: awaiting it says whether this process holds it. Without one,
    // the first write opens it; an empty transaction does that through the write queue. (Every indexer pass calls
    // this: no round trip while the session lives; its 'end' clears `writer`.)
    if (this.writer) await this.writer;
    else await this.write(() => Promise.resolve());
  }

  private write<T>(fn: (db: pg.Client) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      if (!this.writer) {
        this.writer = this.openWriter();
        this.writer.catch(() => { this.writer = null; });
      }
      const client = await this.writer;
      await client.query('BEGIN');
      try {
        const result = await fn(client);
        await client.query('COMMIT');
        this.scripts.commit();
        return result;
      } catch (error) {
        this.scripts.abort();
        await client.query('ROLLBACK');
        throw error;
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    const writer = this.writer;
    this.writer = null;
    if (writer) await (await writer.catch(() => null))?.end();
  }

  connectBlocks(blocks: readonly BlockToConnect[]): Promise<ConnectedBlock[]> {
    return this.write((db) => connectBlocksTx(db, this.n, blocks, this.scripts));
  }

  disconnectTip(expectedHash: string): Promise<DisconnectedBlock> {
    return this.write((db) => {
      // It changes totals behind the cache.
      this.scripts.clear();
      return disconnectTipTx(db, this.n, expectedHash);
    });
  }

  addMempoolTxs(entries: readonly MempoolEntry[]): Promise<MempoolAddResult[]> {
    return this.write((db) => addMempoolTxsTx(db, this.n, entries, this.scripts));
  }

  removeMempoolTxs(txids: readonly string[], reason: MempoolRemoveReason): Promise<string[]> {
    return this.write((db) => runPostgres(db, removeMempoolTxs(this.n, txids, reason)));
  }

  pruneRemovedMempool(removedBefore: number, limit: number): Promise<number> {
    return this.write((db) => runPostgres(db, pruneRemovedMempool(this.n, removedBefore, limit)));
  }

  beginBulkLoad(startedAt: number): Promise<void> {
    this.recentScripts = new RecentKeys();
    return this.write((db) => {
      this.scripts.clear();
      return beginBulkLoadTx(db, this.n, startedAt);
    });
  }

  loadBlocks(blocks: readonly BlockToConnect[]): Promise<ChainTip> {
    return this.write((db) => loadBlocksTx(db, this.n, blocks, this.recentScripts, this.held));
  }

  /**
   * Before a killed load appends again: deletes what was loaded after the outputs it held in memory (lost with the
   * process: postgres-bulk-held.ts), so loading resumes from the last block whose outputs are written.
   */
  resumeBulkLoad(): Promise<void> {
    return this.write(async (db) => {
      if ((await runPostgres(db, readBulkLoad(this.n.net)))?.step === 0) await rewindToHeld(db, this.n);
    });
  }

  /** Writes the outputs a worker load held to its end (postgres-worker-loader.ts). */
  loadRelease(release: EncodedRelease): Promise<void> {
    return this.write((db) => loadReleaseTx(db, this.n, release));
  }

  /** What a worker thread needs to encode the next batch of a bulk load (main/stores/postgres-worker-loader.ts). */
  bulkEncoding(): Promise<{ nextTx: number; keys: ScriptKeyParams }> {
    return this.write((db) => bulkEncodingTx(db, this.n));
  }

  /** Appends a batch encoded elsewhere (postgres-bulk-encode.ts), like loadBlocks. */
  loadEncoded(batch: EncodedBulkBatch): Promise<ChainTip> {
    return this.write((db) => loadEncodedTx(db, this.n, batch));
  }

  /** Each build step in its own transaction on the writer session, with its progress mark. */
  async finishBulkLoad(onStep?: (step: BulkBuildStep) => void | Promise<void>, rawTxs?: RawTxSource): Promise<void> {
    const state = await this.getBulkLoad();
    if (!state) return;
    // A load that did not write the outputs it held (killed before its end) is built up to the last block whose
    // outputs are written; the blocks after it are followed afterwards.
    if (state.step === 0) await this.write((db) => rewindToHeld(db, this.n));
    const run: BuildRun = { analyzed: new Set() };
    for (let i = state.step; i < BUILD_STEPS.length; i++) {
      const step = BUILD_STEPS[i]!;
      await onStep?.({ step: i + 1, steps: BUILD_STEPS.length, name: step.name });
      await this.write(async (db) => {
        await db.query(BUILD_SETTINGS);
        await step.run(db, this.n, rawTxs, poolSideSession(this.pool), run);
        await db.query('UPDATE bulk_loads SET step = $1 WHERE net = $2', [i + 1, this.n.net]);
      });
    }
    this.scripts.clear();
    // Planner statistics now: bulk-loaded tables have none until autovacuum gets to them, and the first address
    // reads planned without them ran ~10x slower (docs/benchmarks.md, Address lists). Steps analyze beside their own
    // work the tables no later step changes; the rest (all of them after a resumed build) here.
    const left = analyzedTables(this.n).filter((table) => !run.analyzed.has(table));
    if (left.length > 0) await this.pool.query(`ANALYZE ${left.join(', ')}`);
  }

  resetChain(): Promise<void> {
    return this.write((db) => {
      this.scripts.clear();
      return resetChainTx(db, this.n);
    });
  }

  /** Through the writer session: only the network's one indexer (the advisory lock holder) writes its status. */
  setSyncStatus(status: SyncStatus | null): Promise<void> {
    return this.write((db) => runPostgres(db, writeSyncStatus(this.n.net, status)));
  }

  override getTip(): Promise<ChainTip | null> {
    return this.reads.current().tip.get();
  }
}
