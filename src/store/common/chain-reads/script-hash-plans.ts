/**
 * Reads by scripthash and the Electrum protocol's chain data (core/store/script-hash-reads.ts), written once for both
 * engines as plans (sql-plan.ts): the lookup through the scripthash index (the dialect's one difference), a script's
 * whole history as Electrum's status needs it (txid and height; fee and unconfirmed parents of mempool txs), raw
 * headers and block hashes by height.
 */
import type { ScriptHashBalance, ScriptHashHistory, ScriptHashIndexState, ScriptHashMempoolTx, ScriptHashUnspent, ScriptHashUtxo } from '../../../core/store/script-hash-reads.js';
import type { ChainNet } from '../chain-net.js';
import { probeScript } from '../chain-writes/script-rows.js';
import { scriptHashBuildKey } from '../schema/chain-tables.js';
import { bytesToHex, sameBytes, unpackPrevouts } from '../schema/codec.js';
import { scriptSha256 } from '../schema/script-hash-keys.js';
import { big, first, num, rows, type Plan, type Row } from '../sql/sql-plan.js';
import { mempoolSumsOf, mempoolSumsSql } from './history-assembly.js';
import { MainChainHeights } from './main-chain-heights.js';

/** The 80-byte header of a stored block row (hashes are stored in display order, headers carry them reversed). */
export function headerOfRow(r: Row): Buffer {
  const header = Buffer.alloc(80);
  header.writeInt32LE(num(r.version) | 0, 0);
  Buffer.from(r.prev_hash as Uint8Array).reverse().copy(header, 4);
  Buffer.from(r.merkle_root as Uint8Array).reverse().copy(header, 36);
  header.writeUInt32LE(num(r.time), 68);
  header.writeUInt32LE(num(r.bits), 72);
  header.writeUInt32LE(num(r.nonce), 76);
  return header;
}

/** How far a background build has come: the last script key it indexed over the key space (keys are uniform hashes). */
function buildProgress(value: unknown, bits: number): number {
  const last = value === '' || value === null || value === undefined ? -1 : Number(value);
  return Math.min(0.99, Math.max(0, (last + 1) / 2 ** bits));
}

/** The kinds of row of the one-statement reads (column k). */
const AT = 0;
const TIP = 1;
const CONFIRMED = 2;
const POOL = 3;
const SPENT = 4;
/** Typed NULLs: PostgreSQL types a column that is NULL in both branches of a UNION as text, which the next branch then fails to match. */
const NO_ID = 'CAST(NULL AS BIGINT)';
const NO_HASH = 'CAST(NULL AS BYTEA)';
const NO_VOUT = 'CAST(NULL AS INTEGER)';

/** The rows of a one-statement read by kind. */
function tagged(found: readonly Row[]): { at: boolean; tip: Uint8Array | null; confirmed: Row[]; pool: Row[]; spent: Row[] } {
  const out = { at: false, tip: null as Uint8Array | null, confirmed: [] as Row[], pool: [] as Row[], spent: [] as Row[] };
  for (const r of found) {
    const k = num(r.k);
    if (k === AT) out.at = true;
    else if (k === TIP) out.tip = r.txid as Uint8Array;
    else if (k === CONFIRMED) out.confirmed.push(r);
    else if (k === POOL) out.pool.push(r);
    else out.spent.push(r);
  }
  return out;
}

/** Chain order of confirmed rows (a union's branches keep no order of their own that both engines promise). */
const byId = (a: Row, b: Row): number => num(a.id) - num(b.id);
const byOutput = (a: Row, b: Row): number => num(a.id) - num(b.id) || num(a.vout) - num(b.vout);

export class ScriptHashPlans {
  private readonly sql;
  /** Heights by tx id (main-chain-heights.ts): a listed tx's block is not joined per row. */
  private readonly heights: MainChainHeights;

  constructor(private readonly n: ChainNet) {
    const { t, dialect: d } = n;
    this.heights = new MainChainHeights(t, d, n.net);
    this.sql = {
      byHash: d.scriptsByHash(t),
      confirmed: `SELECT h.id, tx.txid FROM ${t.history} h JOIN ${t.txs} tx ON tx.id = h.id WHERE h.script = ? ORDER BY h.id LIMIT ? + 0`,
      liveOf: `SELECT txid FROM ${t.mempoolTxs} WHERE ${d.inHashList('txid')} AND removed = ${d.no}`,
      // Through the partial index of unspent outputs (script, id, vout, value): its condition is the query's.
      unspent: `SELECT o.id, tx.txid, o.vout, o.value FROM ${t.outputs} o JOIN ${t.txs} tx ON tx.id = o.id
        WHERE o.script = ? AND o.spent_by IS NULL ORDER BY o.id, o.vout LIMIT ? + 0`,
      mempoolSpent: `SELECT prev_txid, prev_vout FROM ${t.mempoolSpends} WHERE script = ?`,
      // UNION ALL, not UNION: each side is a search of its by-script index; UNION would sort them through a temporary
      // B-tree on every call. Duplicates are dropped in memory.
      mempoolTouching: `SELECT txid FROM ${t.mempoolOutputs} WHERE script = ?
        UNION ALL SELECT txid FROM ${t.mempoolSpends} WHERE script = ? LIMIT ? + 0`,
      mempoolPaid: `SELECT txid, vout, value FROM ${t.mempoolOutputs} WHERE script = ?`,
      mempoolTxsOf: `SELECT txid, fee, prevouts FROM ${t.mempoolTxs} WHERE ${d.inHashList('txid')}`,
      headers: `SELECT version, prev_hash, merkle_root, time, bits, nonce FROM ${t.blocks}
        WHERE height >= ? AND height < ? AND is_orphan = ${d.no} ORDER BY height`,
      hashes: `SELECT hash FROM ${t.blocks} WHERE height >= ? AND height <= ? AND is_orphan = ${d.no} ORDER BY height`,
      // The usual answers in one statement each (Electrum asks them for every address of a wallet): whether the script
      // sits at its first key (the probe's first step; binds key, script), the tip (binds net), then the lists of that
      // key, each row tagged by k. Lists are cut at max + 1 rows (binds max + 1) and put in order in memory.
      historyAt: `SELECT ${AT} AS k, ${NO_ID} AS id, ${NO_HASH} AS txid FROM ${t.scripts} WHERE key = ? AND script = ?
        UNION ALL SELECT ${TIP}, ${NO_ID}, hash FROM tips WHERE net = ?
        UNION ALL SELECT * FROM (SELECT ${CONFIRMED} AS k, h.id, tx.txid FROM ${t.history} h JOIN ${t.txs} tx ON tx.id = h.id
          WHERE h.script = ? ORDER BY h.id LIMIT ? + 0) c
        UNION ALL SELECT * FROM (SELECT ${POOL} AS k, ${NO_ID} AS id, txid FROM ${t.mempoolOutputs} WHERE script = ?
          UNION ALL SELECT ${POOL}, ${NO_ID}, txid FROM ${t.mempoolSpends} WHERE script = ? LIMIT ? + 0) m`,
      unspentAt: `SELECT ${AT} AS k, ${NO_ID} AS id, ${NO_HASH} AS txid, ${NO_VOUT} AS vout, ${NO_ID} AS value FROM ${t.scripts} WHERE key = ? AND script = ?
        UNION ALL SELECT ${TIP}, ${NO_ID}, hash, ${NO_VOUT}, ${NO_ID} FROM tips WHERE net = ?
        UNION ALL SELECT * FROM (SELECT ${CONFIRMED} AS k, o.id, tx.txid, o.vout, o.value FROM ${t.outputs} o JOIN ${t.txs} tx ON tx.id = o.id
          WHERE o.script = ? AND o.spent_by IS NULL ORDER BY o.id, o.vout LIMIT ? + 0) c
        UNION ALL SELECT ${SPENT}, ${NO_ID}, prev_txid, prev_vout, ${NO_ID} FROM ${t.mempoolSpends} WHERE script = ?
        UNION ALL SELECT ${POOL}, ${NO_ID}, txid, vout, value FROM ${t.mempoolOutputs} WHERE script = ?`,
      // Confirmed totals and the mempool's sums of the script's row at a key (binds key, script).
      balanceAt: `SELECT received, sent, ${mempoolSumsSql(t.mempoolOutputs, t.mempoolSpends, 's.key', false)},
        CASE WHEN EXISTS (SELECT 1 FROM ${t.mempoolOutputs} WHERE script = s.key) OR EXISTS (SELECT 1 FROM ${t.mempoolSpends} WHERE script = s.key)
          THEN 1 ELSE 0 END AS pending
        FROM ${t.scripts} s WHERE key = ? AND script = ?`,
    };
  }

  *indexState(): Plan<ScriptHashIndexState> {
    const row = yield* first('SELECT value FROM meta WHERE key = ?', [scriptHashBuildKey(this.n.id)]);
    if (!row) return { ready: true, progress: 1 };
    const keys = yield* this.n.keysOfStore();
    return { ready: false, progress: buildProgress(row.value, keys.params.bits) };
  }

  /** The stored script with this sha256 (the index narrows to a prefix; the whole hash of each candidate decides). */
  *scriptOf(sha256: Uint8Array): Plan<Uint8Array | null> {
    for (const r of yield* rows(this.sql.byHash, [this.n.dialect.scriptHashKey(sha256)])) {
      const script = r.script as Uint8Array;
      if (sameBytes(scriptSha256(script), sha256)) return script;
    }
    return null;
  }

  /** The script's confirmed balance and the mempool's change to it (zero when the index has never seen it). */
  *balance(script: Uint8Array): Plan<ScriptHashBalance> {
    let row = yield* first(this.sql.balanceAt, [(yield* this.n.keysOfStore()).base(script), script]);
    if (!row) {
      // Not at its first key: another script took it first (or the script has no row), so probe on.
      const key = yield* this.keyOf(script);
      if (key !== null) row = yield* first(this.sql.balanceAt, [key, script]);
      if (!row) return { confirmed: 0n, unconfirmed: 0n, pending: false };
    }
    const pool = mempoolSumsOf(row);
    return { confirmed: big(row.received) - big(row.sent), unconfirmed: pool.received - pool.sent, pending: num(row.pending) !== 0 };
  }

  /** The script's key, or null when the index has never seen it. */
  private *keyOf(script: Uint8Array): Plan<number | null> {
    const keys = yield* this.n.keysOfStore();
    const { row, key } = yield* probeScript(this.n.t, script, keys.base(script));
    return row ? key : null;
  }

  /** historyAt's one statement; the probe (historyProbed) when the script is not at its first key or a list was cut. */
  *history(script: Uint8Array, max: number): Plan<ScriptHashHistory | null> {
    const key = (yield* this.n.keysOfStore()).base(script);
    const found = yield* rows(this.sql.historyAt, [key, script, this.n.net, key, max + 1, key, key, max + 1]);
    const { at, tip, confirmed: listed, pool } = tagged(found);
    if (!at || pool.length > max) return yield* this.historyProbed(script, max);
    if (listed.length > max) return null;
    const heights = yield* this.heights.at(tip);
    const confirmed = listed.sort(byId).map((r) => ({ txid: bytesToHex(r.txid as Uint8Array), height: heights.heightOf(num(r.id)) }));
    const txids = new Set(pool.map((r) => bytesToHex(r.txid as Uint8Array)));
    if (confirmed.length + txids.size > max) return null;
    if (txids.size === 0) return { confirmed, mempool: [] };
    return { confirmed, mempool: yield* this.withParents(yield* rows(this.sql.mempoolTxsOf, [this.n.dialect.hashList([...txids])])) };
  }

  private *historyProbed(script: Uint8Array, max: number): Plan<ScriptHashHistory | null> {
    const key = yield* this.keyOf(script);
    if (key === null) return { confirmed: [], mempool: [] };
    const found = yield* rows(this.sql.confirmed, [key, max + 1]);
    if (found.length > max) return null;
    const heights = yield* this.heights.current();
    const confirmed = found.map((r) => ({ txid: bytesToHex(r.txid as Uint8Array), height: heights.heightOf(num(r.id)) }));
    const mempool = yield* this.mempoolOfKey(key, max - confirmed.length);
    return mempool && { confirmed, mempool };
  }

  *mempool(script: Uint8Array, max: number): Plan<ScriptHashMempoolTx[] | null> {
    const key = yield* this.keyOf(script);
    return key === null ? [] : yield* this.mempoolOfKey(key, max);
  }

  /** unspentAt's one statement; the probe (unspentProbed) when the script is not at its first key. */
  *unspent(script: Uint8Array, max: number): Plan<ScriptHashUnspent | null> {
    const key = (yield* this.n.keysOfStore()).base(script);
    const found = yield* rows(this.sql.unspentAt, [key, script, this.n.net, key, max + 1, key, key]);
    const { at, tip, confirmed, pool, spent: spentRows } = tagged(found);
    if (!at) return yield* this.unspentProbed(script, max);
    if (confirmed.length > max) return null;
    const heights = confirmed.length > 0 ? yield* this.heights.at(tip) : null;
    const spent = new Set(spentRows.map((r) => `${bytesToHex(r.txid as Uint8Array)}:${num(r.vout)}`));
    return yield* this.unspentOf(confirmed.sort(byOutput), heights, spent, pool, max);
  }

  private *unspentProbed(script: Uint8Array, max: number): Plan<ScriptHashUnspent | null> {
    const key = yield* this.keyOf(script);
    if (key === null) return { outputs: [], pending: false };
    const confirmed = yield* rows(this.sql.unspent, [key, max + 1]);
    if (confirmed.length > max) return null;
    const heights = confirmed.length > 0 ? yield* this.heights.current() : null;
    const spent = new Set((yield* rows(this.sql.mempoolSpent, [key])).map((r) => `${bytesToHex(r.prev_txid as Uint8Array)}:${num(r.prev_vout)}`));
    return yield* this.unspentOf(confirmed, heights, spent, yield* rows(this.sql.mempoolPaid, [key]), max);
  }

  /** The list from the script's confirmed unspent rows (in order), the outputs mempool txs spend and those they pay. */
  private *unspentOf(confirmed: readonly Row[], heights: MainChainHeights | null, spent: ReadonlySet<string>, pool: readonly Row[], max: number): Plan<ScriptHashUnspent | null> {
    const out: ScriptHashUtxo[] = [];
    const pending = spent.size > 0 || pool.length > 0;
    for (const r of confirmed) {
      const txid = bytesToHex(r.txid as Uint8Array);
      if (spent.size === 0 || !spent.has(`${txid}:${num(r.vout)}`)) out.push({ txid, vout: num(r.vout), value: big(r.value), height: heights!.heightOf(num(r.id)), unconfirmedParent: false });
    }
    const paid = pool.filter((r) => !spent.has(`${bytesToHex(r.txid as Uint8Array)}:${num(r.vout)}`));
    if (paid.length === 0) return { outputs: out, pending };
    if (out.length + paid.length > max) return null;
    const txids = [...new Set(paid.map((r) => bytesToHex(r.txid as Uint8Array)))];
    const parents = new Map((yield* this.withParents(yield* rows(this.sql.mempoolTxsOf, [this.n.dialect.hashList(txids)]))).map((m) => [m.txid, m.unconfirmedParent]));
    for (const r of paid) {
      const txid = bytesToHex(r.txid as Uint8Array);
      out.push({ txid, vout: num(r.vout), value: big(r.value), height: null, unconfirmedParent: parents.get(txid) ?? false });
    }
    return { outputs: out, pending };
  }

  /**
   * The txs paying the script and those spending from it (none, the usual case, costs one statement). The read stops
   * after max + 1 rows; only when it stopped short of max + 1 txids (a tx with several of these outputs or inputs) is
   * it read again whole, so a script with a huge mempool costs max + 1 rows, not all of them.
   */
  private *mempoolOfKey(key: number, max: number): Plan<ScriptHashMempoolTx[] | null> {
    let txids = yield* this.mempoolTxidsOf(key, max + 1);
    if (txids === 'cut') txids = yield* this.mempoolTxidsOf(key, 2 ** 31 - 1); // PostgreSQL types `? + 0` as integer
    if (txids === 'cut' || txids.size > max) return null;
    if (txids.size === 0) return [];
    return yield* this.withParents(yield* rows(this.sql.mempoolTxsOf, [this.n.dialect.hashList([...txids])]));
  }

  /** The mempool txids paying or spending the script, or 'cut' when the read hit its cap with fewer than cap txids. */
  private *mempoolTxidsOf(key: number, cap: number): Plan<Set<string> | 'cut'> {
    const found = yield* rows(this.sql.mempoolTouching, [key, key, cap]);
    const txids = new Set(found.map((r) => bytesToHex(r.txid as Uint8Array)));
    return found.length >= cap && txids.size < cap ? 'cut' : txids;
  }

  /** Whether each mempool tx spends an output of another live mempool tx: one statement for all their inputs. */
  private *withParents(pool: readonly Row[]): Plan<ScriptHashMempoolTx[]> {
    if (pool.length === 0) return [];
    const parents = pool.map((r) => new Set(unpackPrevouts(r.prevouts as Uint8Array).flatMap((p) => (p ? [p.txid] : []))));
    const wanted = [...new Set(parents.flatMap((s) => [...s]))];
    const live = new Set<string>();
    for (let i = 0; i < wanted.length; i += 5_000) {
      for (const r of yield* rows(this.sql.liveOf, [this.n.dialect.hashList(wanted.slice(i, i + 5_000))])) live.add(bytesToHex(r.txid as Uint8Array));
    }
    return pool.map((r, i) => ({
      txid: bytesToHex(r.txid as Uint8Array), fee: big(r.fee), unconfirmedParent: [...parents[i]!].some((txid) => live.has(txid)),
    }));
  }

  *headers(fromHeight: number, count: number): Plan<Buffer[]> {
    if (count <= 0) return [];
    return (yield* rows(this.sql.headers, [fromHeight, fromHeight + count])).map(headerOfRow);
  }

  /** Internal byte order (the reverse of the stored display bytes), as header merkle trees hash them. */
  *blockHashes(fromHeight: number, toHeight: number): Plan<Buffer[]> {
    return (yield* rows(this.sql.hashes, [fromHeight, toHeight])).map((r) => Buffer.from(r.hash as Uint8Array).reverse());
  }
}
