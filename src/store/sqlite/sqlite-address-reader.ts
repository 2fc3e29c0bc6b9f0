/** Address reads for SQLite: totals, FIFO history and unspent outputs (compact chain layout). */
import { NotFoundError } from '../../core/errors.js';
import type { AddressHistoryEntry, AddressTotals, AddressTotalsOptions, HistoryOptions, UnspentOptions, UnspentOutput } from '../../core/store.js';
import { bytesToHex, hexToBytes } from '../common/codec.js';
import {
  assembleTotals, groupIoRows, matchesKind, pageConfirmedThenMempool, sortMempoolEntries, withoutRecent, type IoRow,
} from '../common/history-assembly.js';
import { SqliteChainReader } from './sqlite-chain-reader.js';
import { readTip, txIdsOf } from './sqlite-chain-writer.js';
import type { SqliteNet } from './sqlite-net.js';
import { findScript, readTotal } from './sqlite-scripts.js';
import { big, num, type Row } from './sqlite-statements.js';

const FUNDS = 1;
const SPENDS = 2;

export class SqliteAddressReader {
  private readonly chain: SqliteChainReader;

  constructor(private readonly n: SqliteNet) {
    this.chain = new SqliteChainReader(n);
  }

  private mempoolIo(key: number): IoRow[] {
    const { t } = this.n;
    const rows = this.n.st.get(`SELECT t.txid, t.seen_at AS time, 0 AS io, o.vout AS n, o.value FROM ${t.mempoolOutputs} o
        JOIN ${t.mempoolTxs} t ON t.txid = o.txid WHERE o.script = ?
      UNION ALL SELECT t.txid, t.seen_at AS time, 1 AS io, s.vin AS n, s.value FROM ${t.mempoolSpends} s
        JOIN ${t.mempoolTxs} t ON t.txid = s.txid WHERE s.script = ?`).all(key, key) as Row[];
    return rows.map((r) => ({ txid: bytesToHex(r.txid as Buffer), height: null, position: null, time: num(r.time), io: num(r.io), n: num(r.n), value: big(r.value) }));
  }

  /**
   * The io rows of confirmed txs (ids in page order) for one script: their outputs paying it, their inputs spending
   * from it. Three statements for the whole page (each id list passed as one JSON array), not three per tx.
   */
  private confirmedIo(key: number, ids: readonly number[]): IoRow[] {
    if (ids.length === 0) return [];
    const { st, t } = this.n;
    const list = JSON.stringify(ids);
    const txids = new Map((st.get(`SELECT id, txid FROM ${t.txs} WHERE id IN (SELECT value FROM json_each(?))`).all(list) as Row[])
      .map((r) => [num(r.id), bytesToHex(r.txid as Buffer)]));
    const byTx = new Map<number, IoRow[]>(ids.map((id) => [id, []]));
    const base = new Map<number, Omit<IoRow, 'io' | 'n' | 'value'>>();
    for (const id of ids) {
      const block = this.chain.blockOfTx(id)!;
      base.set(id, { txid: txids.get(id)!, height: block.height, position: id - block.firstTx, time: block.time });
    }
    for (const r of st.get(`SELECT id, vout AS n, value FROM ${t.outputs} WHERE id IN (SELECT value FROM json_each(?)) AND script = ?`).all(list, key) as Row[]) {
      byTx.get(num(r.id))!.push({ ...base.get(num(r.id))!, io: 0, n: num(r.n), value: big(r.value) });
    }
    for (const r of st.get(`SELECT spent_by AS id, spent_vin AS n, value FROM ${t.outputs}
        WHERE spent_by IN (SELECT value FROM json_each(?)) AND script = ?`).all(list, key) as Row[]) {
      byTx.get(num(r.id))!.push({ ...base.get(num(r.id))!, io: 1, n: num(r.n), value: big(r.value) });
    }
    return ids.flatMap((id) => byTx.get(id)!);
  }

  totals(script: Uint8Array, options: AddressTotalsOptions = {}): AddressTotals {
    const { row, key } = findScript(this.n, script);
    if (!row) return assembleTotals({ received: 0n, sent: 0n, txCount: 0, receivedCount: 0, sentCount: 0 }, []);
    let confirmed = {
      received: readTotal(row.received), sent: readTotal(row.sent), txCount: num(row.tx_count),
      receivedCount: num(row.received_count), sentCount: num(row.sent_count),
    };
    const minConf = Math.max(1, options.minConfirmations ?? 1);
    // The tip only matters for deeper confirmation counts: the common case skips the read.
    const tip = minConf > 1 ? readTip(this.n) : null;
    if (tip) {
      const cutoff = this.firstTxAbove(tip.height - minConf + 1);
      if (cutoff !== null) {
        const ids = (this.n.st.get(`SELECT id FROM ${this.n.t.history} WHERE script = ? AND id >= ?`).all(key, cutoff) as Row[]).map((r) => num(r.id));
        const recent = this.confirmedIo(key, ids);
        confirmed = withoutRecent(confirmed, recent);
      }
    }
    return assembleTotals(confirmed, this.mempoolIo(key));
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
    for (const id of txIdsOf(this.n, hexToBytes(afterTxid))) {
      const block = this.chain.blockOfTx(id);
      if (block && !block.isOrphan) return id;
    }
    throw new NotFoundError('after_tx', `transaction ${afterTxid} is not confirmed`);
  }

  async history(script: Uint8Array, o: HistoryOptions): Promise<AddressHistoryEntry[]> {
    const { row, key } = findScript(this.n, script);
    if (!row) return [];
    const cur = this.cursor(o.afterTxid);
    const desc = o.direction === 'desc';
    const kind = o.kind === 'received' ? ` AND (flags & ${FUNDS}) != 0` : o.kind === 'spent' ? ` AND (flags & ${SPENDS}) != 0` : '';
    const cmp = cur !== null ? ` AND id ${desc ? '<' : '>'} ?` : '';
    const args = cur !== null ? [key, cur] : [key];
    return pageConfirmedThenMempool<AddressHistoryEntry>({
      confirmed: async (limit, offset) => {
        const ids = this.n.st.get(`SELECT id FROM ${this.n.t.history} WHERE script = ?${kind}${cmp} ORDER BY id ${desc ? 'DESC' : ''} LIMIT ? OFFSET ?`)
          .all(...args, limit, offset) as Row[];
        return groupIoRows(this.confirmedIo(key, ids.map((r) => num(r.id))));
      },
      confirmedCount: async () => num((this.n.st.get(`SELECT COUNT(*) AS c FROM ${this.n.t.history} WHERE script = ?${kind}${cmp}`).get(...args) as Row).c),
      mempool: async () => sortMempoolEntries(groupIoRows(this.mempoolIo(key))).filter((e) => matchesKind(e, o.kind)),
    }, { limit: o.limit, offset: o.offset ?? 0, direction: o.direction, hasCursor: cur !== null, includeMempool: o.includeMempool ?? true });
  }

  async unspent(script: Uint8Array, o: UnspentOptions): Promise<UnspentOutput[]> {
    const { row, key } = findScript(this.n, script);
    if (!row) return [];
    const { t } = this.n;
    const stored = row.script as Buffer;
    const cur = this.cursor(o.afterTxid);
    const cmp = cur !== null ? ' AND o.id > ?' : '';
    const args = cur !== null ? [key, cur] : [key];
    const notSpentInMempool = `NOT EXISTS (SELECT 1 FROM ${t.mempoolSpends} m WHERE m.prev_txid = tx.txid AND m.prev_vout = o.vout)`;
    const blockTime = `(SELECT time FROM ${t.blocks} b WHERE b.first_tx <= o.id ORDER BY b.first_tx DESC LIMIT 1)`;
    const blockHeight = `(SELECT height FROM ${t.blocks} b WHERE b.first_tx <= o.id ORDER BY b.first_tx DESC LIMIT 1)`;
    const toOutput = (r: Row, confirmed: boolean): UnspentOutput => ({
      txid: bytesToHex(r.txid as Buffer), vout: num(r.vout), value: big(r.value), script: stored,
      height: confirmed ? num(r.height) : null, time: num(r.time),
    });
    return pageConfirmedThenMempool<UnspentOutput>({
      confirmed: async (limit, offset) => (this.n.st.get(`SELECT tx.txid, o.vout, o.value, ${blockHeight} AS height, ${blockTime} AS time
          FROM ${t.outputs} o JOIN ${t.txs} tx ON tx.id = o.id
          WHERE o.script = ? AND o.spent_by IS NULL${cmp} AND ${notSpentInMempool}
          ORDER BY o.id, o.vout LIMIT ? OFFSET ?`).all(...args, limit, offset) as Row[]).map((r) => toOutput(r, true)),
      confirmedCount: async () => num((this.n.st.get(`SELECT COUNT(*) AS c FROM ${t.outputs} o JOIN ${t.txs} tx ON tx.id = o.id
          WHERE o.script = ? AND o.spent_by IS NULL${cmp} AND ${notSpentInMempool}`).get(...args) as Row).c),
      mempool: async () => sortMempoolEntries((this.n.st.get(`SELECT o.txid, o.vout, o.value, tx.seen_at AS time FROM ${t.mempoolOutputs} o
          JOIN ${t.mempoolTxs} tx ON tx.txid = o.txid
          WHERE o.script = ? AND ${notSpentInMempool.replace('tx.txid', 'o.txid')} ORDER BY o.vout`).all(key) as Row[]).map((r) => toOutput(r, false))),
    }, { limit: o.limit, offset: o.offset ?? 0, direction: 'asc', hasCursor: cur !== null, includeMempool: o.includeMempool });
  }
}
