/**
 * What the node said about its mempool since the indexer last looked: each txid that entered ('A') or left ('R'),
 * from the ZMQ `sequence` topic, in the node's order. With it a pass fetches the txs that arrived and removes those
 * that left, instead of reading the node's whole txid list (6.6 MB of JSON at 100,000 txs, built by the node under its
 * mempool lock) and diffing it against the store at every signal.
 *
 * The journal is only as good as the stream it was fed: it is **trusted** once a whole-list pass (a diff) has started
 * after the first announcement arrived, which proves the subscription was live, and nothing was lost since. Before
 * that, and after any sign of loss (`distrust`: a gap in ZMQ's message counter, a reconnect, a disconnected block),
 * passes diff the whole list; a diff covers every announcement made before it started, so it consumes them.
 */

/** A txid's last word since the last pass: in the mempool (fetch it unless stored) or out (remove it if stored). */
export interface JournalEntry {
  readonly txid: string;
  readonly entered: boolean;
  /** When the node announced it (ms, the journal's clock). */
  readonly since: number;
}

/** How often a tx may come back as waiting for its parent before the journal gives up and diffs the whole list. */
const MAX_RETRIES = 3;

export class MempoolJournal {
  /** By txid, its last announcement and when (Map order: the order of each txid's last announcement). */
  private entries = new Map<string, { entered: boolean; at: number; since: number }>();
  private position = 0;
  /** Where the first announcement since the last distrust was recorded (null: none yet). */
  private anchor: number | null = null;
  /** Bumped by distrust(): a diff that saw it change while it ran does not make the journal trusted. */
  private generation = 0;
  private trustedNow = false;
  private readonly retries = new Map<string, number>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  /** True when the next pass may work from the journal alone. */
  get trusted(): boolean {
    return this.trustedNow;
  }

  get size(): number {
    return this.entries.size;
  }

  /** An announcement from the node. */
  record(txid: string, entered: boolean): void {
    this.put(txid, entered);
    this.anchor ??= this.position;
  }

  /** Something may have been missed: until a diff that starts after the next announcement, passes read the whole list. */
  distrust(): void {
    this.trustedNow = false;
    this.anchor = null;
    this.generation++;
  }

  /** A whole-list pass begins: what it covers (pass to `diffDone`). */
  diffStarting(): DiffMark {
    return { position: this.position, generation: this.generation, listening: this.anchor !== null };
  }

  /**
   * The diff that began at `mark` finished and left the store equal to the list it read: what was announced before it
   * began is covered (dropped); the journal is trusted if the stream was live then and nothing was lost since.
   */
  diffDone(mark: DiffMark): void {
    this.dropThrough(mark.position);
    if (mark.listening && mark.generation === this.generation) this.trustedNow = true;
  }

  /**
   * `txids` with those announced as entering first, in the order the node announced them, then the rest as given: a
   * diff takes a burst in the order the node accepted it (its list is in another order), so realtime announces it so.
   */
  arrivalOrder(txids: readonly string[]): string[] {
    if (this.entries.size === 0) return [...txids];
    const at = (txid: string): number => {
      const entry = this.entries.get(txid);
      return entry?.entered ? entry.at : Number.MAX_SAFE_INTEGER;
    };
    // A stable sort: the unannounced keep the list's order among themselves.
    return txids.map((txid, i) => ({ txid, i, at: at(txid) })).sort((a, b) => a.at - b.at || a.i - b.i).map((x) => x.txid);
  }

  /** The first `max` announcements waiting, each txid's last, in order; `consume(through)` them once applied. */
  pending(max = Number.MAX_SAFE_INTEGER): { readonly entries: readonly JournalEntry[]; readonly through: number } {
    const entries: JournalEntry[] = [];
    let through = 0;
    for (const [txid, { entered, since, at }] of this.entries) {
      if (entries.length === max) break;
      entries.push({ txid, entered, since });
      through = at;
    }
    return { entries, through };
  }

  consume(through: number): void {
    this.dropThrough(through);
  }

  /**
   * A tx that entered came back waiting for a parent not stored yet (its parent's announcement may follow, or the
   * parent left): asked for again next pass, a few times, then the whole list decides.
   */
  retry(txid: string): void {
    const tries = (this.retries.get(txid) ?? 0) + 1;
    if (tries > MAX_RETRIES) {
      this.retries.clear();
      this.distrust();
      return;
    }
    this.retries.set(txid, tries);
    if (!this.entries.has(txid)) this.put(txid, true);
  }

  /**
   * A tx announced as leaving that the pass could not yet explain (nothing it added conflicts with it): kept as
   * pending, with the time it was announced, for a later pass to decide (see MempoolSync.fromJournal).
   */
  defer(entry: JournalEntry): void {
    if (this.entries.has(entry.txid)) return;
    this.position++;
    this.entries.set(entry.txid, { entered: entry.entered, at: this.position, since: entry.since });
  }

  /** A tx that was stored (or left) for good: no more retries counted for it. */
  settled(txid: string): void {
    this.retries.delete(txid);
  }

  private put(txid: string, entered: boolean): void {
    this.position++;
    this.entries.delete(txid);
    this.entries.set(txid, { entered, at: this.position, since: this.nowMs() });
  }

  private dropThrough(position: number): void {
    for (const [txid, { at }] of this.entries) {
      if (at > position) break;
      this.entries.delete(txid);
    }
  }
}

export interface DiffMark {
  readonly position: number;
  readonly generation: number;
  readonly listening: boolean;
}
