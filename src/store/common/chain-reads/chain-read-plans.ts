/**
 * Transaction, output, block and mempool reads (compact chain layout), written once for both engines as plans
 * (sql-plan.ts): the SQLite driver runs them synchronously in one read transaction, the PostgreSQL driver with await.
 * A tx's block is found by a scalar subquery both engines plan as one probe of the first_tx index (block ranges never
 * overlap: the newest block starting at or before the id holds it when its range reaches it).
 */
import type { PrevoutInfo } from '../../../core/domain/chain-types.js';
import type { BlockHeaderRecord, BlockRecord, HashPrefixMatches, MempoolInfo, MempoolTxSummary, OutputRecord, SpendRef, TxRecord } from '../../../core/store/chain-reads.js';
import type { ChainTables } from '../schema/chain-tables.js';
import { bytesToHex, hexToBytes, unpackPrevouts, type StoredPrevout } from '../schema/codec.js';
import type { SqlDialect } from '../sql/sql-dialect.js';
import { big, bool, first, num, rows, type Plan, type Row } from '../sql/sql-plan.js';
import { chainTxRecord, mempoolTxRecord, storedBlockHeader, storedBlockRecord, storedChainTxRow, type BlockOfTx } from './tx-record.js';

/** `JOIN` of the block holding tx id `id` as `b`: callers check `${id} < b.first_tx + b.tx_count`. */
export function joinBlockOf(blocks: string, id: string): string {
  return `JOIN ${blocks} b ON b.first_tx = (SELECT first_tx FROM ${blocks} WHERE first_tx <= ${id} ORDER BY first_tx DESC LIMIT 1)`;
}

/** The statements, built once per network and engine (fixed texts: each engine prepares each once). */
function chainReadSql(t: ChainTables, d: SqlDialect) {
  const mainBlock = `SELECT hash FROM ${t.blocks} WHERE height = ? AND is_orphan = ${d.no}`;
  return {
    /** [txid, txid]: the stored copy to answer with: in a main-chain block if any, else the newest orphaned one. */
    chainRow: `SELECT t.*, r.raw, b.hash AS block_hash, b.height AS block_height, b.time AS block_time, b.is_orphan, b.first_tx AS block_first_tx
      FROM ${t.txs} t LEFT JOIN ${t.txRaws} r ON r.id = t.id ${joinBlockOf(t.blocks, 't.id')}
      WHERE ${d.txidIs('t.txid')} AND t.id < b.first_tx + b.tx_count ORDER BY b.is_orphan, t.id DESC LIMIT 1`,
    /** [txid, txid]: the id of the main-chain copy of a txid. */
    confirmedId: `SELECT t.id FROM ${t.txs} t ${joinBlockOf(t.blocks, 't.id')}
      WHERE ${d.txidIs('t.txid')} AND t.id < b.first_tx + b.tx_count AND b.is_orphan = ${d.no} ORDER BY t.id DESC LIMIT 1`,
    /** [id, id]: what a main-chain tx's inputs spent, in input order (its spent outputs name it), and its output sum. */
    spentBy: `SELECT o.vout, o.value, s.script, t.txid, (SELECT sum(value) FROM ${t.outputs} WHERE id = ?) AS out_sum
      FROM ${t.outputs} o JOIN ${t.scripts} s ON s.key = o.script JOIN ${t.txs} t ON t.id = o.id
      WHERE o.spent_by = ? ORDER BY o.spent_vin`,
    mempoolTx: `SELECT * FROM ${t.mempoolTxs} WHERE txid = ?`,
    liveMempoolTx: `SELECT 1 FROM ${t.mempoolTxs} WHERE txid = ? AND removed = ${d.no}`,
    scriptsOfKeys: `SELECT key, script FROM ${t.scripts} WHERE ${d.inList('key')}`,
    confirmedOutputs: `SELECT o.vout, o.value, s.script, sp.txid AS spent_txid, o.spent_vin FROM ${t.outputs} o
      JOIN ${t.scripts} s ON s.key = o.script LEFT JOIN ${t.txs} sp ON sp.id = o.spent_by WHERE o.id = ? ORDER BY o.vout`,
    mempoolOutputs: `SELECT o.vout, o.value, s.script, NULL AS spent_txid, NULL AS spent_vin FROM ${t.mempoolOutputs} o
      JOIN ${t.scripts} s ON s.key = o.script WHERE o.txid = ? ORDER BY o.vout`,
    mempoolSpendsOf: `SELECT prev_vout, txid, vin FROM ${t.mempoolSpends} WHERE prev_txid = ? ORDER BY prev_vout, txid`,
    blockByHash: `SELECT * FROM ${t.blocks} WHERE hash = ?`,
    blockByHeight: `SELECT * FROM ${t.blocks} WHERE height = ? AND is_orphan = ${d.no}`,
    blockHeaders: `SELECT * FROM ${t.blocks} WHERE height >= ? AND height <= ? AND is_orphan = ${d.no} ORDER BY height`,
    mainBlock,
    txidsOfRange: `SELECT txid FROM ${t.txs} WHERE id BETWEEN ? AND ? ORDER BY id`,
    // The live mempool's sums as the triggers keep them (schema/mempool-stats.ts): one row, whatever its size.
    mempoolInfo: `SELECT tx_count AS c, bytes AS b, vbytes AS v FROM ${t.mempoolStats}`,
    mempoolEntries: `SELECT txid, fee, size, weight, seen_at FROM ${t.mempoolTxs} WHERE removed = ${d.no}`,
    /** [hashList]: those of the listed txids that are live in the mempool, by the txid key. */
    mempoolEntriesOf: `SELECT txid, fee, size, weight, seen_at FROM ${t.mempoolTxs} WHERE ${d.inHashList('txid')} AND removed = ${d.no}`,
    mempoolTxids: `SELECT txid FROM ${t.mempoolTxs} WHERE removed = ${d.no} ORDER BY seen_at, txid`,
    /** [lo8, hi8, limit]: confirmed (or orphaned) txids by a range of the first-8-bytes index. */
    txidPrefix: `SELECT txid FROM ${t.txs} WHERE ${d.txidKeyBetween('txid')} LIMIT ? + 0`,
    /** [lo, hi, limit]: mempool txids by a range of the primary key. */
    mempoolTxidPrefix: `SELECT txid FROM ${t.mempoolTxs} WHERE txid BETWEEN ? AND ? ORDER BY txid LIMIT ? + 0`,
    /** [lo, hi, limit]: block hashes (main chain or orphaned) by a range of the primary key. */
    blockHashPrefix: `SELECT hash, height, is_orphan FROM ${t.blocks} WHERE hash BETWEEN ? AND ? ORDER BY hash LIMIT ? + 0`,
  };
}

type ChainReadSql = ReturnType<typeof chainReadSql>;

/** Hashes bound to one statement: a mempool's worth (tens of thousands) in a few statements of bounded size. */
const HASHES_PER_STATEMENT = 5_000;

function mempoolSummary(r: Row): MempoolTxSummary {
  return { txid: bytesToHex(r.txid as Buffer), fee: big(r.fee), size: num(r.size), vsize: Math.ceil(num(r.weight) / 4), weight: num(r.weight), seenAt: num(r.seen_at) };
}
type ChainRow = { row: Row; block: BlockOfTx };

export class ChainReadPlans {
  readonly sql: ChainReadSql;

  constructor(readonly t: ChainTables, readonly d: SqlDialect) {
    this.sql = chainReadSql(t, d);
  }

  *chainRow(txid: Buffer): Plan<ChainRow | null> {
    const row = yield* first(this.sql.chainRow, [txid, txid]);
    if (!row) return null;
    const block = {
      hash: bytesToHex(row.block_hash as Buffer), height: num(row.block_height), time: num(row.block_time),
      isOrphan: bool(row.is_orphan), firstTx: num(row.block_first_tx),
    };
    return { row, block };
  }

  /** The id of a confirmed tx, or null when no main-chain block holds it. */
  *confirmedId(txid: string): Plan<number | null> {
    const key = hexToBytes(txid);
    const row = yield* first(this.sql.confirmedId, [key, key]);
    return row ? num(row.id) : null;
  }

  /** The bytes of each script key (every key must exist). */
  *scriptsByKey(keys: Iterable<number>): Plan<Map<number, Uint8Array>> {
    const wanted = [...new Set(keys)];
    const out = new Map<number, Uint8Array>();
    if (wanted.length === 0) return out;
    for (const r of yield* rows(this.sql.scriptsOfKeys, [this.d.list(wanted)])) out.set(num(r.key), r.script as Buffer);
    for (const key of wanted) if (!out.has(key)) throw new Error(`script key ${key} not found`);
    return out;
  }

  private *withScripts(stored: readonly (StoredPrevout | null)[]): Plan<(PrevoutInfo | null)[]> {
    const scripts = yield* this.scriptsByKey(stored.flatMap((p) => (p ? [p.scriptId] : [])));
    return stored.map((p) => (p ? { txid: p.txid, vout: p.vout, value: p.value, script: scripts.get(p.scriptId)! } : null));
  }

  *transaction(txid: string): Plan<TxRecord | null> {
    const key = hexToBytes(txid);
    const chain = yield* this.chainRow(key);
    if (chain && !chain.block.isOrphan) {
      const id = num(chain.row.id);
      if (id === chain.block.firstTx) return chainTxRecord(txid, storedChainTxRow(chain.row), chain.block, [null], null);
      const spent = yield* rows(this.sql.spentBy, [id, id]);
      const prevouts = spent.map((r) => ({ txid: bytesToHex(r.txid as Buffer), vout: num(r.vout), value: big(r.value), script: r.script as Buffer }));
      const fee = prevouts.reduce((s, p) => s + p.value, 0n) - (spent.length > 0 ? big(spent[0]!.out_sum) : 0n);
      return chainTxRecord(txid, storedChainTxRow(chain.row), chain.block, prevouts, fee);
    }
    // A confirmed tx's mempool row was deleted on confirmation (its first-seen time moved to txs).
    const m = yield* first(this.sql.mempoolTx, [key]);
    if (m) {
      const stored = unpackPrevouts(m.prevouts as Buffer);
      const scripts = yield* this.scriptsByKey(stored.flatMap((p) => (p ? [p.scriptId] : [])));
      return mempoolTxRecord(txid, m, stored, scripts);
    }
    if (!chain) return null;
    // Orphaned: its inputs are unspent again; what they spent was kept on the row when its block was disconnected.
    const prevouts = yield* this.withScripts(unpackPrevouts(chain.row.orphan_prevouts as Buffer));
    const fee = chain.row.orphan_fee === null ? null : big(chain.row.orphan_fee);
    return chainTxRecord(txid, storedChainTxRow(chain.row), chain.block, prevouts, fee);
  }

  *outputs(txid: string): Plan<OutputRecord[] | null> {
    const key = hexToBytes(txid);
    const chain = yield* this.chainRow(key);
    const confirmed = chain !== null && !chain.block.isOrphan;
    if (!confirmed && (yield* first(this.sql.liveMempoolTx, [key])) === undefined) return null;
    const outs = confirmed
      ? yield* rows(this.sql.confirmedOutputs, [num(chain.row.id)])
      : yield* rows(this.sql.mempoolOutputs, [key]);
    const mempoolSpends = new Map<number, SpendRef>();
    for (const r of yield* rows(this.sql.mempoolSpendsOf, [key])) {
      if (!mempoolSpends.has(num(r.prev_vout))) mempoolSpends.set(num(r.prev_vout), { txid: bytesToHex(r.txid as Buffer), vin: num(r.vin), confirmed: false });
    }
    return outs.map((r) => ({
      vout: num(r.vout), value: big(r.value), script: r.script as Buffer,
      spentBy: r.spent_txid ? { txid: bytesToHex(r.spent_txid as Buffer), vin: num(r.spent_vin), confirmed: true } : mempoolSpends.get(num(r.vout)) ?? null,
    }));
  }

  private *block(row: Row | undefined): Plan<BlockRecord | null> {
    if (!row) return null;
    const next = bool(row.is_orphan) ? undefined : yield* first(this.sql.mainBlock, [num(row.height) + 1]);
    const firstTx = num(row.first_tx);
    const txids = (yield* rows(this.sql.txidsOfRange, [firstTx, firstTx + num(row.tx_count) - 1])).map((r) => bytesToHex(r.txid as Buffer));
    return storedBlockRecord(row, txids, next ? bytesToHex(next.hash as Buffer) : null);
  }

  *blockByHash(hash: string): Plan<BlockRecord | null> {
    return yield* this.block(yield* first(this.sql.blockByHash, [hexToBytes(hash)]));
  }

  *blockByHeight(height: number): Plan<BlockRecord | null> {
    return yield* this.block(yield* first(this.sql.blockByHeight, [height]));
  }

  *blockHeaders(fromHeight: number, toHeight: number): Plan<BlockHeaderRecord[]> {
    return (yield* rows(this.sql.blockHeaders, [fromHeight, toHeight])).map(storedBlockHeader);
  }

  *mainChainHash(height: number): Plan<string | null> {
    const row = yield* first(this.sql.mainBlock, [height]);
    return row ? bytesToHex(row.hash as Buffer) : null;
  }

  *mempoolInfo(): Plan<MempoolInfo> {
    const row = (yield* first(this.sql.mempoolInfo))!;
    return { count: num(row.c), bytes: num(row.b), vbytes: num(row.v) };
  }

  *mempoolEntries(): Plan<MempoolTxSummary[]> {
    return (yield* rows(this.sql.mempoolEntries)).map(mempoolSummary);
  }

  *mempoolEntriesOf(txids: readonly string[]): Plan<MempoolTxSummary[]> {
    const found: MempoolTxSummary[] = [];
    for (let at = 0; at < txids.length; at += HASHES_PER_STATEMENT) {
      for (const r of yield* rows(this.sql.mempoolEntriesOf, [this.d.hashList(txids.slice(at, at + HASHES_PER_STATEMENT))])) found.push(mempoolSummary(r));
    }
    return found;
  }

  *mempoolTxids(): Plan<string[]> {
    return (yield* rows(this.sql.mempoolTxids)).map((r) => bytesToHex(r.txid as Buffer));
  }

  /** Index range scans only: the txid key's first 8 bytes, the mempool's and the blocks' primary keys. */
  *hashPrefix(prefix: string, limit: number): Plan<HashPrefixMatches> {
    const lo = hexToBytes(prefix.padEnd(64, '0'));
    const hi = hexToBytes(prefix.padEnd(64, 'f'));
    const matches = (hex: string): boolean => hex.startsWith(prefix);
    // The 8-byte key range holds exactly the txids of a prefix of up to 16 digits; a longer prefix is checked on each row.
    const confirmed = (yield* rows(this.sql.txidPrefix, [lo.subarray(0, 8), hi.subarray(0, 8), limit * 2])).map((r) => bytesToHex(r.txid as Buffer));
    const mempool = (yield* rows(this.sql.mempoolTxidPrefix, [lo, hi, limit])).map((r) => bytesToHex(r.txid as Buffer));
    const blocks = (yield* rows(this.sql.blockHashPrefix, [lo, hi, limit])).map((r) => ({ hash: bytesToHex(r.hash as Buffer), height: num(r.height), isOrphan: bool(r.is_orphan) }));
    const txids = [...new Set([...confirmed, ...mempool])].filter(matches).sort().slice(0, limit);
    return { txids, blocks };
  }
}
