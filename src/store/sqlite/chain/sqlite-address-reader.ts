/** Address reads for SQLite: totals, FIFO history and unspent outputs (compact chain layout). */
import { NotFoundError } from '../../../core/domain/errors.js';
import type { AddressHistoryEntry, AddressTotals, AddressTotalsOptions, HistoryOptions, UnspentOptions, UnspentOutput } from '../../../core/store/chain-reads.js';
import { bytesToHex } from '../../common/schema/codec.js';
import {
  assembleTotals, groupIoRows, matchesKind, isSumOverflow, mempoolSumsOf, mempoolSumsSql, NO_MEMPOOL, NO_TOTALS, pageConfirmedThenMempoolSync, sortMempoolEntries,
  storedTotals, withoutRecent, type IoRow, type MempoolSums, type SumForm,
} from '../../common/chain-reads/history-assembly.js';
import { readTip } from '../../common/schema/network-rows.js';
import type { SqliteNet } from './sqlite-net.js';
import { findScript } from './sqlite-scripts.js';
import { FUNDS, SPENDS } from '../../common/chain-writes/tx-effects.js';
import { inReadTransaction } from '../connection/sqlite-plans.js';
import { big, LIMIT_OFFSET, num, type Row } from '../connection/sqlite-statements.js';


export class SqliteAddressReader {
  constructor(private readonly n: SqliteNet) {}

  /** One answer's statements in one read transaction (inReadTransaction). */
  private read<T>(answer: () => T): T {
    return inReadTransaction(this.n.st, answer);
  }

  private mempoolIo(key: number): IoRow[] {
    const { t } = this.n;
    const rows = this.n.st.get(`SELECT t.txid, t.seen_at AS time, 0 AS io, o.vout AS n, o.value FROM ${t.mempoolOutputs} o
        JOIN ${t.mempoolTxs} t ON t.txid = o.txid WHERE o.script = ?
      UNION ALL SELECT t.txid, t.seen_at AS time, 1 AS io, s.vin AS n, s.value FROM ${t.mempoolSpends} s
        JOIN ${t.mempoolTxs} t ON t.txid = s.txid WHERE s.script = ?`).all(key, key) as Row[];
    return rows.map((r) => ({ txid: bytesToHex(r.txid as Buffer), height: null, position: null, time: num(r.time), io: num(r.io), n: num(r.n), value: big(r.value) }));
  }

  /** Summed whole, and split only past 2^63 (SumForm). */
  private mempoolSums(key: number, txCount: boolean): MempoolSums {
    const { t } = this.n;
    const read = (form: SumForm): MempoolSums =>
      mempoolSumsOf(this.n.st.get(`SELECT ${mempoolSumsSql(t.mempoolOutputs, t.mempoolSpends, '@key', txCount, form)}`).get({ key }) as Row);
    try {
      return read('whole');
    } catch (err) {
      if (!isSumOverflow(err)) throw err;
      return read('split');
    }
  }

  /**
   * The io rows of the confirmed txs chosen by `page` (a subquery of history rows: id, flags) for one script, in page
   * order: their outputs paying it, their inputs spending from it. Two statements for the whole page: the txs with
   * their txid and block, then the io rows of the ids whose flags say they have any (id lists passed as JSON arrays).
   */
  private confirmedIo(key: number, page: string, args: readonly unknown[], desc = false): IoRow[] {
    const { st, t } = this.n;
    const txs = st.get(`SELECT h.id, h.flags, tx.txid, b.height, b.first_tx, b.time FROM (${page}) h
        JOIN ${t.txs} tx ON tx.id = h.id
        JOIN ${t.blocks} b ON b.first_tx = (SELECT first_tx FROM ${t.blocks} WHERE first_tx <= h.id ORDER BY first_tx DESC LIMIT 1)
        ORDER BY h.id ${desc ? 'DESC' : ''}`).all(...args) as Row[];
    if (txs.length === 0) return [];
    const funds: number[] = [];
    const spends: number[] = [];
    const base = new Map<number, Omit<IoRow, 'io' | 'n' | 'value'>>();
    for (const r of txs) {
      const id = num(r.id);
      const flags = num(r.flags);
      if (flags & FUNDS) funds.push(id);
      if (flags & SPENDS) spends.push(id);
      base.set(id, { txid: bytesToHex(r.txid as Buffer), height: num(r.height), position: id - num(r.first_tx), time: num(r.time) });
    }
    const byTx = new Map<number, IoRow[]>([...base.keys()].map((id) => [id, []]));
    for (const r of st.get(`SELECT id, 0 AS io, vout AS n, value FROM ${t.outputs} WHERE id IN (SELECT value FROM json_each(?)) AND script = ?
        UNION ALL SELECT spent_by, 1, spent_vin, value FROM ${t.outputs} WHERE spent_by IN (SELECT value FROM json_each(?)) AND script = ?`)
      .all(JSON.stringify(funds), key, JSON.stringify(spends), key) as Row[]) {
      const id = num(r.id);
      byTx.get(id)!.push({ ...base.get(id)!, io: num(r.io), n: num(r.n), value: big(r.value) });
    }
    return [...byTx.values()].flat();
  }

  totals(script: Uint8Array, options: AddressTotalsOptions = {}): AddressTotals {
    return this.read(() => this.totalsNow(script, options));
  }

  private totalsNow(script: Uint8Array, options: AddressTotalsOptions): AddressTotals {
    const { row, key } = findScript(this.n, script);
    if (!row) return assembleTotals(NO_TOTALS, NO_MEMPOOL);
    let confirmed = storedTotals(row);
    const minConf = Math.max(1, options.minConfirmations ?? 1);
    // The tip only matters for deeper confirmation counts: the common case skips the read.
    const tip = minConf > 1 ? this.n.run(readTip(this.n.net)) : null;
    if (tip) {
      const cutoff = this.firstTxAbove(tip.height - minConf + 1);
      if (cutoff !== null) {
        const recent = this.confirmedIo(key, `SELECT id, flags FROM ${this.n.t.history} WHERE script = ? AND id >= ?`, [key, cutoff]);
        confirmed = withoutRecent(confirmed, recent);
      }
    }
    return assembleTotals(confirmed, this.mempoolSums(key, options.mempoolTxCount ?? true));
  }

  /** The first tx id of the main-chain block above `height` (null: no such block). */
  private firstTxAbove(height: number): number | null {
    const row = this.n.st.get(`SELECT first_tx FROM ${this.n.t.blocks} WHERE height > ? AND is_orphan = 0 ORDER BY height LIMIT 1`)
      .get(height) as Row | undefined;
    return row ? num(row.first_tx) : null;
  }

  /** The id of a confirmed tx (the paging cursor); NotFoundError when it is not in the main chain. */
  private cursor(afterTxid: string | undefined): number | null {
    if (afterTxid === undefined) return null;
    const id = this.n.run(this.n.reads.confirmedId(afterTxid));
    if (id === null) throw new NotFoundError('after_tx', `transaction ${afterTxid} is not confirmed`);
    return id;
  }

  async history(script: Uint8Array, o: HistoryOptions): Promise<AddressHistoryEntry[]> {
    return this.read(() => this.historyNow(script, o));
  }

  private historyNow(script: Uint8Array, o: HistoryOptions): AddressHistoryEntry[] {
    const { row, key } = findScript(this.n, script);
    if (!row) return [];
    const cur = this.cursor(o.afterTxid);
    const desc = o.direction === 'desc';
    const kind = o.kind === 'received' ? ` AND (flags & ${FUNDS}) != 0` : o.kind === 'spent' ? ` AND (flags & ${SPENDS}) != 0` : '';
    const cmp = cur !== null ? ` AND id ${desc ? '<' : '>'} ?` : '';
    const args = cur !== null ? [key, cur] : [key];
    return pageConfirmedThenMempoolSync<AddressHistoryEntry>({
      confirmed: (limit, offset) => groupIoRows(this.confirmedIo(key,
        `SELECT id, flags FROM ${this.n.t.history} WHERE script = ?${kind}${cmp} ORDER BY id ${desc ? 'DESC' : ''} ${LIMIT_OFFSET}`,
        [...args, limit, offset], desc)),
      confirmedCount: () => num((this.n.st.get(`SELECT COUNT(*) AS c FROM ${this.n.t.history} WHERE script = ?${kind}${cmp}`).get(...args) as Row).c),
      mempool: () => sortMempoolEntries(groupIoRows(this.mempoolIo(key))).filter((e) => matchesKind(e, o.kind)),
    }, { limit: o.limit, offset: o.offset ?? 0, direction: o.direction, hasCursor: cur !== null, includeMempool: o.includeMempool ?? true });
  }

  async unspent(script: Uint8Array, o: UnspentOptions): Promise<UnspentOutput[]> {
    return this.read(() => this.unspentNow(script, o));
  }

  private unspentNow(script: Uint8Array, o: UnspentOptions): UnspentOutput[] {
    const { row, key } = findScript(this.n, script);
    if (!row) return [];
    const { t } = this.n;
    const stored = row.script as Buffer;
    const cur = this.cursor(o.afterTxid);
    const cmp = cur !== null ? ' AND o.id > ?' : '';
    const args = cur !== null ? [key, cur] : [key];
    const notSpentInMempool = `NOT EXISTS (SELECT 1 FROM ${t.mempoolSpends} m WHERE m.prev_txid = tx.txid AND m.prev_vout = o.vout)`;
    // The block of each output of the page: one probe of the first_tx index, then its row.
    const block = `JOIN ${t.blocks} b ON b.first_tx = (SELECT first_tx FROM ${t.blocks} WHERE first_tx <= o.id ORDER BY first_tx DESC LIMIT 1)`;
    const toOutput = (r: Row, confirmed: boolean): UnspentOutput => ({
      txid: bytesToHex(r.txid as Buffer), vout: num(r.vout), value: big(r.value), script: stored,
      height: confirmed ? num(r.height) : null, time: num(r.time),
    });
    return pageConfirmedThenMempoolSync<UnspentOutput>({
      confirmed: (limit, offset) => (this.n.st.get(`SELECT tx.txid, o.vout, o.value, b.height, b.time
          FROM ${t.outputs} o JOIN ${t.txs} tx ON tx.id = o.id ${block}
          WHERE o.script = ? AND o.spent_by IS NULL${cmp} AND ${notSpentInMempool}
          ORDER BY o.id, o.vout ${LIMIT_OFFSET}`).all(...args, limit, offset) as Row[]).map((r) => toOutput(r, true)),
      confirmedCount: () => num((this.n.st.get(`SELECT COUNT(*) AS c FROM ${t.outputs} o JOIN ${t.txs} tx ON tx.id = o.id
          WHERE o.script = ? AND o.spent_by IS NULL${cmp} AND ${notSpentInMempool}`).get(...args) as Row).c),
      mempool: () => sortMempoolEntries((this.n.st.get(`SELECT o.txid, o.vout, o.value, tx.seen_at AS time FROM ${t.mempoolOutputs} o
          JOIN ${t.mempoolTxs} tx ON tx.txid = o.txid
          WHERE o.script = ? AND ${notSpentInMempool.replace('tx.txid', 'o.txid')} ORDER BY o.vout`).all(key) as Row[]).map((r) => toOutput(r, false))),
    }, { limit: o.limit, offset: o.offset ?? 0, direction: 'asc', hasCursor: cur !== null, includeMempool: o.includeMempool });
  }
}
