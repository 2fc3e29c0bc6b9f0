import type { MempoolSnapshot, MempoolSource, MempoolSourceEntry } from '../core/sources/mempool-source.js';
import type { MempoolEntry, NodeClient } from './rpc/node-client.js';
import { TxidSet, txidsOf } from '../core/domain/txid-set.js';

/** A whole verbose mempool at least this often: catches what diffs cannot see (`prioritisetransaction` fee deltas). */
export const FULL_REFRESH_MS = 5 * 60_000;
/** New entries asked for per batched request. */
const ENTRIES_PER_REQUEST = 1_000;

function sourceEntry(e: MempoolEntry): MempoolSourceEntry {
  return {
    txid: e.txid,
    fee: e.modifiedFee,
    vsize: e.vsize,
    // Nodes without segwit (dogecoind) give no weight: four times the size, as consensus counts it.
    weight: e.weight ?? e.vsize * 4,
    size: null,
    depends: e.depends,
    seenAt: e.time,
  };
}

/**
 * The node's mempool for block projections: mining fees (after prioritisation), vsize, weight and in-mempool parents.
 * Kept between snapshots and brought up to date from the node's txid list: new txs are asked for with
 * `getmempoolentry`, gone ones dropped (with them as parents). A mainnet mempool's verbose form is over 10 MB of JSON
 * (20,000-30,000 txs), parsed on the event loop twice a second at 10 tx/s; its txid list is an eighth of that, and
 * the entries of a pass's new txs a few kB. What an entry says does not change while it stays (its time, size,
 * weight and parents; a parent only leaves, confirmed or replaced with its children), except a fee delta set with
 * `prioritisetransaction`: a whole verbose read every FULL_REFRESH_MS catches that.
 */
export class RpcMempoolSource implements MempoolSource {
  private entries: Map<string, MempoolSourceEntry> | null = null;
  /** The txids of `entries`, looked up by their place in the node's list. */
  private ids = new TxidSet();
  private fullAtMs = 0;

  constructor(
    private readonly node: NodeClient,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async snapshot(): Promise<MempoolSnapshot> {
    const [entries, { info, relayFee }] = await Promise.all([this.current(), this.node.getMempoolPolicy()]);
    // Rates come per 1,000 vbytes; a tx below the larger of the two cannot enter this node's mempool.
    const perKvB = info.mempoolMinFee > relayFee ? info.mempoolMinFee : relayFee;
    return { entries: [...entries.values()], minFeeRate: Number(perKvB) / 1000, takenAt: Math.floor(this.nowMs() / 1000) };
  }

  private async current(): Promise<Map<string, MempoolSourceEntry>> {
    if (this.entries === null || this.nowMs() - this.fullAtMs >= FULL_REFRESH_MS) {
      this.fullAtMs = this.nowMs();
      this.entries = new Map([...(await this.node.getRawMempoolVerbose()).values()].map((e) => [e.txid, sourceEntry(e)]));
      this.ids = new TxidSet(this.entries.keys());
      return this.entries;
    }
    // A failed update leaves no half-updated map behind: the next snapshot starts over from the whole mempool.
    const entries = this.entries;
    const ids = this.ids;
    this.entries = null;
    // The list read where it lies in the reply and looked up by place (txid-set.ts), not decoded into 20,000-30,000
    // strings each hashed into a Set at every pass; the node's set is built only when an entry is no longer listed.
    const list = await this.node.getMempoolTxidList();
    const added: string[] = [];
    let listed = 0;
    for (let i = 0; i < list.length; i++) {
      if (ids.hasAt(list, i)) listed++;
      else added.push(list.txid(i));
    }
    let removed = false;
    if (listed !== entries.size) {
      const present = new Set(txidsOf(list));
      for (const txid of entries.keys()) {
        if (!present.has(txid)) {
          entries.delete(txid);
          ids.delete(txid);
          removed = true;
        }
      }
    }
    for (let at = 0; at < added.length; at += ENTRIES_PER_REQUEST) {
      // A tx gone between the list and its entry (null) is simply not there.
      for (const e of await this.node.getMempoolEntries(added.slice(at, at + ENTRIES_PER_REQUEST))) {
        if (!e) continue;
        entries.set(e.txid, sourceEntry(e));
        ids.add(e.txid);
      }
    }
    if (removed) {
      // A parent that left was confirmed (its children now need nothing) or replaced (its children left with it).
      for (const [txid, e] of entries) {
        if (e.depends.some((parent) => !entries.has(parent))) entries.set(txid, { ...e, depends: e.depends.filter((parent) => entries.has(parent)) });
      }
    }
    this.entries = entries;
    return entries;
  }
}
