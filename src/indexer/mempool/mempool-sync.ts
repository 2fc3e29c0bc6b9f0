import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { TxidSet, txidListOf, txidsOf, type ChainSource, type MempoolAddResult, type MempoolEntry, type NetworkStore, type Transaction, type TxidList } from '../../core/index.js';
import { busyMs as busyClock, FittedBatch } from '../../core/infrastructure/fitted-batch.js';
import { parseTransaction } from '../../chains/parsing.js';
import { storedFlags, type ListedTxids } from './listed-txids.js';
import { MempoolJournal } from './mempool-journal.js';

/** Txs fetched per batched getrawtransaction request. */
const FETCH_CHUNK = 500;
/**
 * Txs stored per write, the event loop turning between writes: one holds the loop while it runs on SQLite (~0.1 ms a
 * tx on a quiet machine, several times that on a loaded one), and requests wait behind it. New txs are written in
 * batches fitted to WRITE_TARGET_MS of the loop's time (core/infrastructure/fitted-batch.ts), STORE_CHUNK at most,
 * MIN_STORE_CHUNK at least; removals in STORE_CHUNK.
 */
const STORE_CHUNK = 250;
const MIN_STORE_CHUNK = 50;
const WRITE_TARGET_MS = 20;
/** How long a tx announced as leaving may wait for the announcement of the tx that replaced it (ms). */
const LEAVING_GRACE_MS = 1_000;
/**
 * New txs one pass takes at most: a mempool found at start (100,000 txs) is taken over several passes, each of which
 * looks at the node's tip first, so a block found meanwhile waits for one pass (~1-2 s), not for the whole mempool.
 */
const TXS_PER_PASS = 5_000;

export interface MempoolSyncResult {
  readonly added: readonly { tx: Transaction; result: MempoolAddResult; seenAt: number }[];
  /** How many of `added` (the first ones) were told to the pass's OnStored already; the rest are the caller's to tell. */
  readonly told: number;
  /** Left the node's mempool: replaced (by a conflicting tx added in this pass, with its descendants) or evicted. */
  readonly removed: readonly { readonly txid: string; readonly reason: 'replaced' | 'evicted' }[];
  /** Some txs waited for a parent that was not stored yet, or the tip moved meanwhile: run again. */
  readonly incomplete: boolean;
  /** More new txs than one pass takes were waiting: run again at once. */
  readonly more: boolean;
  /** Txs in the stored mempool after the pass (null: not known here, the node's tip moved meanwhile). */
  readonly count: number | null;
}

type Added = MempoolSyncResult['added'][number];

/**
 * Told of each write's added txs as soon as it is stored, with the stored mempool's size then: a pass of 5,000 txs
 * is announced as it goes (its events follow its writes), not after its last write. Awaited: the pass goes on once
 * the listener has taken them up (the indexer's events are paced to the event log). The last write's txs are not
 * told: the caller tells them with the size the pass leaves, after its removals.
 */
export type OnStored = (added: readonly Added[], count: number) => Promise<void>;

/**
 * Makes the stored mempool equal the node's. Two ways, one result:
 * - From the node's announcements (ZMQ `sequence`, mempool-journal.ts), when they can be trusted and the tip has not
 *   moved since the last pass: the txs that entered are fetched and stored, those that left are removed. No list is read.
 * - Otherwise by a diff (polling, Dogecoin's hashtx, a new tip, a lost message, the periodic safety net): the node's
 *   whole txid list against the store; new txids fetched, parsed and stored (parents and children may arrive
 *   together), txids the node dropped removed.
 * A tx that left and conflicts with one just added was replaced; otherwise it was evicted (expiry, size limit, or, for
 * a diff, confirmation in a block we have not connected yet, which connectBlocks then records as confirmed).
 *
 * The stored mempool's txids are read from the store once per tip and then kept here, updated by this class's own
 * writes: reading them back every poll cost O(mempool) per poll (at 20,000-30,000 txs the largest item of a profile,
 * docs/benchmarks.md "Mempool at mainnet rates"). Only this class writes the live mempool while the tip stays; a
 * new tip (blocks confirm and reorgs return txs), a failed pass or a writer handover (forget()) reads it again.
 */
export class MempoolSync {
  /** Txids whose parse gave another txid: Litecoin MWEB-only txs, whose id comes from their kernel. */
  private readonly confidential = new Set<string>();
  /** The stored mempool's txids as of `knownTip`'s pass; null: read them from the store next pass. */
  private known: TxidSet | null = null;
  private knownTip: string | null = null;
  /** The node's list of the pass that left `known`, and which of its txids were stored then (listed-txids.ts). */
  private listed: ListedTxids | null = null;
  private readonly journal: MempoolJournal;
  private readonly perWrite = new FittedBatch(STORE_CHUNK, MIN_STORE_CHUNK, WRITE_TARGET_MS);

  constructor(
    private readonly source: ChainSource,
    private readonly store: NetworkStore,
    private readonly mweb: boolean,
    /** UNIX seconds: when a tx was first seen. */
    private readonly now: () => number,
    /** Milliseconds: how long announcements have waited. */
    private readonly nowMs: () => number = Date.now,
    /** The event loop's busy time (ms): what a write cost it. */
    private readonly busyMs: () => number = busyClock,
  ) {
    this.journal = new MempoolJournal(nowMs);
  }

  /** The node announced that a tx entered (or left) its mempool. */
  announce(txid: string, entered: boolean): void {
    this.journal.record(txid, entered);
  }

  /** Announcements may have been lost (or the notifier has none): passes diff the whole list until trusted again. */
  distrust(): void {
    this.journal.distrust();
  }

  /**
   * `tipHash` is the block we are synced to: when the node's tip moved meanwhile, txids missing
   * from its mempool may just have been confirmed, so removals wait for the next round.
   */
  async sync(tipHash: string | null, onStored: OnStored = async () => undefined): Promise<MempoolSyncResult> {
    const kept = this.known !== null && this.knownTip === tipHash;
    return kept && this.journal.trusted ? this.fromJournal(tipHash, this.known!, onStored) : this.diff(tipHash, kept, onStored);
  }

  private async diff(tipHash: string | null, kept: boolean, onStored: OnStored): Promise<MempoolSyncResult> {
    const mark = this.journal.diffStarting();
    const nodeTxids = await this.nodeTxids();
    const ours = kept ? this.known! : new TxidSet(await this.store.getMempoolTxids());
    const previous = kept ? this.listed : null;
    // Until this pass has finished, what is stored is not known here (a write may fail half-way).
    this.known = null;
    this.listed = null;
    // One walk of the node's list. Most passes only add (a few txs arrived): when every stored txid is still listed,
    // no set of the node's 20,000-30,000 txids is built and ours is not walked (on a mainnet-sized mempool those were
    // the largest part of a pass's CPU; docs/benchmarks.md, "Mempool at mainnet rates"). A listed txid is looked up by
    // its place in the node's reply (txid-set.ts), and where the last pass's list had it, answered from there
    // (listed-txids.ts): only the txids not stored become strings.
    const stored = storedFlags(nodeTxids, ours, previous);
    const wanted: string[] = [];
    /** Where each wanted txid is in the node's list. */
    const wantedAt: number[] = [];
    let listed = 0;
    for (let i = 0; i < nodeTxids.length; i++) {
      if (stored[i] === 1) listed++;
      else {
        const txid = nodeTxids.txid(i);
        if (this.confidential.has(txid)) continue;
        wanted.push(txid);
        wantedAt.push(i);
      }
    }
    let nodeSet: Set<string> | null = null;
    const nodeHas = (txid: string): boolean => (nodeSet ??= new Set(txidsOf(nodeTxids))).has(txid);
    for (const txid of this.confidential) if (!nodeHas(txid)) this.confidential.delete(txid);
    const taken = this.journal.arrivalOrder(wanted).slice(0, TXS_PER_PASS);
    const more = wanted.length > taken.length;
    const { added, told, conflicting, incomplete } = await this.fetchAndStore(taken, ours.size, onStored);
    const tipMoved = tipHash !== null && (await this.source.getBestBlockHash()) !== tipHash;
    if (tipMoved) return { added, told, removed: [], incomplete: true, more: false, count: null };
    const gone = listed === ours.size ? [] : [...ours].filter((txid) => !nodeHas(txid));
    const removed = await this.removeGone(gone, conflicting);
    this.keep(ours, added, gone, removed, tipHash);
    // A pass that left txs for the next one has not covered what was announced before it began.
    if (!more) this.journal.diffDone(mark);
    // The list's flags as `ours` is now: what this pass added is stored. A pass that removed anything (rare: blocks
    // come with a new tip) leaves none, and the next pass looks every txid up.
    if (gone.length === 0 && removed.length === 0) {
      const addedIds = new Set(added.map(({ tx }) => tx.txid));
      wanted.forEach((txid, k) => {
        if (addedIds.has(txid)) stored[wantedAt[k]!] = 1;
      });
      this.listed = { list: nodeTxids, stored };
    }
    return { added, told, removed, incomplete, more, count: ours.size };
  }

  /**
   * A pass from the node's announcements alone: what entered is fetched and stored, what left is removed. The tip is
   * asked once, after the announcements are taken: a block's conflicts are announced as leaving ('R') before the block
   * itself, and a tx announced as entering may since have been mined, so a moved tip leaves them to the diff that the
   * new tip brings (connectBlocks records both as the block says).
   */
  private async fromJournal(tipHash: string | null, ours: TxidSet, onStored: OnStored): Promise<MempoolSyncResult> {
    const { entries, through } = this.journal.pending(TXS_PER_PASS);
    if (entries.length === 0) return { added: [], told: 0, removed: [], incomplete: false, more: false, count: ours.size };
    if (tipHash !== null && (await this.source.getBestBlockHash()) !== tipHash) return { added: [], told: 0, removed: [], incomplete: true, more: false, count: null };
    this.journal.consume(through);
    // Capped: the rest waits for the next pass (what arrives meanwhile wakes the loop by itself).
    const more = entries.length === TXS_PER_PASS && this.journal.size > 0;
    this.known = null;
    this.listed = null;
    const wanted = entries.filter((e) => e.entered && !ours.has(e.txid) && !this.confidential.has(e.txid)).map((e) => e.txid);
    const { added, told, conflicting, waiting } = await this.fetchAndStore(wanted, ours.size, onStored);
    for (const txid of waiting) this.journal.retry(txid);
    for (const { tx } of added) this.journal.settled(tx.txid);
    // A replacement is announced as two messages, the replaced tx leaving, then the new one entering: a pass that
    // took the first without the second cannot tell a replacement from an eviction yet, so a departure nothing added
    // explains waits a moment (evictions are rare and not urgent; a replacement's two messages come together).
    const gone: string[] = [];
    let deferred = false;
    for (const e of entries) {
      if (e.entered || !ours.has(e.txid)) continue;
      if (!conflicting.has(e.txid) && this.nowMs() - e.since < LEAVING_GRACE_MS) {
        this.journal.defer(e);
        deferred = true;
        continue;
      }
      gone.push(e.txid);
    }
    for (const txid of gone) this.confidential.delete(txid);
    const removed = await this.removeGone(gone, conflicting);
    this.keep(ours, added, gone, removed, tipHash);
    return { added, told, removed, incomplete: waiting.length > 0 || deferred, more, count: ours.size };
  }

  /**
   * Fetches, parses and stores `wanted` in chunks, telling `onStored` after each write (`stored`: the mempool's size
   * before); what was added, what it conflicts with, what waits for a parent.
   */
  private async fetchAndStore(
    wanted: readonly string[], stored: number, onStored: OnStored,
  ): Promise<{ added: Added[]; told: number; conflicting: Set<string>; incomplete: boolean; waiting: string[] }> {
    const added: Added[] = [];
    /** How many of `added` are live (a tx stored as removed from the start, conflicting with a confirmed one, has no deltas). */
    let live = 0;
    let told = 0;
    const conflicting = new Set<string>();
    const waiting: string[] = [];
    for (let i = 0; i < wanted.length; i += FETCH_CHUNK) {
      const chunk = wanted.slice(i, i + FETCH_CHUNK);
      const raws = await this.source.getRawTransactions(chunk);
      const seenAt = this.now();
      const entries: MempoolEntry[] = [];
      raws.forEach((raw, j) => {
        if (!raw) return;
        const tx = parseTransaction(raw, { mweb: this.mweb });
        if (tx.txid !== chunk[j]) {
          this.confidential.add(chunk[j]!);
          return;
        }
        entries.push({ tx, seenAt });
      });
      for (let k = 0, size = 0; k < entries.length; k += size) {
        if (k > 0) await yieldToEventLoop();
        const written = entries.slice(k, k + this.perWrite.next);
        size = written.length;
        const started = this.busyMs();
        const results = await this.store.addMempoolTxs(written);
        this.perWrite.took(written.length, this.busyMs() - started);
        const now: Added[] = [];
        results.forEach((result, j) => {
          if (result.status === 'missing-parent') waiting.push(written[j]!.tx.txid);
          if (result.status !== 'added') return;
          for (const other of result.conflictsWith) conflicting.add(other);
          now.push({ tx: written[j]!.tx, result, seenAt: written[j]!.seenAt });
        });
        added.push(...now);
        for (const a of now) if (a.result.deltas.length > 0) live++;
        const last = i + FETCH_CHUNK >= wanted.length && k + written.length >= entries.length;
        if (!last && now.length > 0) {
          await onStored(now, stored + live);
          told = added.length;
        }
      }
    }
    return { added, told, conflicting, incomplete: waiting.length > 0, waiting };
  }

  /** Removes what left: replaced when a tx added in this pass conflicts with it, else evicted. */
  private async removeGone(gone: readonly string[], conflicting: ReadonlySet<string>): Promise<MempoolSyncResult['removed']> {
    const replaced = gone.filter((txid) => conflicting.has(txid));
    const evicted = gone.filter((txid) => !conflicting.has(txid));
    return [
      ...(await this.remove(replaced, 'replaced')).map((txid) => ({ txid, reason: 'replaced' as const })),
      ...(await this.remove(evicted, 'evicted')).map((txid) => ({ txid, reason: 'evicted' as const })),
    ];
  }

  /**
   * What this pass added (the node lists it, so it is not in `gone`), less what it removed, is the stored mempool now.
   * The store also removed descendants of what was asked (they are in `removed`); a tx stored as removed from the
   * start (it conflicts with a confirmed one) is in `gone` but not in `removed`.
   */
  private keep(ours: TxidSet, added: readonly Added[], gone: readonly string[], removed: MempoolSyncResult['removed'], tipHash: string | null): void {
    for (const { tx } of added) ours.add(tx.txid);
    for (const txid of gone) ours.delete(txid);
    for (const { txid } of removed) ours.delete(txid);
    this.known = ours;
    this.knownTip = tipHash;
  }

  private async nodeTxids(): Promise<TxidList> {
    return this.source.getMempoolTxidList ? this.source.getMempoolTxidList() : txidListOf(await this.source.getRawMempool());
  }

  /**
   * Removes in writes of STORE_CHUNK txs with a turn of the event loop between them: a write runs synchronously on
   * SQLite, and a whole mempool leaving at once (a node restarted empty: 20,000 txs) held the loop for 4.3 s in one.
   */
  private async remove(txids: readonly string[], reason: 'replaced' | 'evicted'): Promise<string[]> {
    const removed: string[] = [];
    for (let i = 0; i < txids.length; i += STORE_CHUNK) {
      if (i > 0) await yieldToEventLoop();
      removed.push(...(await this.store.removeMempoolTxs(txids.slice(i, i + STORE_CHUNK), reason)));
    }
    return removed;
  }

  /** Reads the stored mempool again next pass (another process may have written it: a writer handover). */
  forget(): void {
    this.known = null;
    this.listed = null;
  }
}
