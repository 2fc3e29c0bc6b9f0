/** Address reads for SQLite: totals, FIFO history and unspent outputs. */
import { NotFoundError } from '../../core/errors.js';
import type { AddressHistoryEntry, AddressTotals, AddressTotalsOptions, HistoryOptions, UnspentOptions, UnspentOutput } from '../../core/store.js';
import { bytesToHex, hexToBytes } from '../common/codec.js';
import {
  assembleTotals, groupIoRows, matchesKind, pageConfirmedThenMempool, sortMempoolEntries, withoutRecent, type IoRow,
} from '../common/history-assembly.js';
import { readTip } from './sqlite-chain-writer.js';
import { big, num, type Row, type Statements } from './sqlite-statements.js';

const MEMPOOL_IO = `SELECT t.txid, t.seen_at AS time, 0 AS io, o.vout AS n, o.value FROM mempool_outputs o
    JOIN mempool_txs t ON t.net = o.net AND t.txid = o.txid WHERE o.script_id = ?
  UNION ALL SELECT t.txid, t.seen_at AS time, 1 AS io, s.vin AS n, s.value FROM mempool_spends s
    JOIN mempool_txs t ON t.net = s.net AND t.txid = s.txid WHERE s.script_id = ?`;

function ioRow(r: Row): IoRow {
  return {
    txid: bytesToHex(r.txid as Buffer), height: r.height == null ? null : num(r.height), position: r.position == null ? null : num(r.position),
    time: num(r.time), io: num(r.io), n: num(r.n), value: big(r.value),
  };
}

export class SqliteAddressReader {
  constructor(private readonly st: Statements, private readonly net: number) {}

  private scriptRow(script: Uint8Array): Row | undefined {
    return this.st.get('SELECT * FROM scripts WHERE net = ? AND script = ?').get(this.net, script) as Row | undefined;
  }

  private mempoolIo(scriptId: number): IoRow[] {
    return (this.st.get(MEMPOOL_IO).all(scriptId, scriptId) as Row[]).map((r) => ioRow({ ...r, height: null, position: null }));
  }

  totals(script: Uint8Array, options: AddressTotalsOptions = {}): AddressTotals {
    const row = this.scriptRow(script);
    if (!row) return assembleTotals({ received: 0n, sent: 0n, txCount: 0, receivedCount: 0, sentCount: 0 }, []);
    const id = num(row.id);
    let confirmed = {
      received: BigInt(row.received as string), sent: BigInt(row.sent as string), txCount: num(row.tx_count),
      receivedCount: num(row.received_count), sentCount: num(row.sent_count),
    };
    const minConf = Math.max(1, options.minConfirmations ?? 1);
    // The tip only matters for deeper confirmation counts: the common case skips the read.
    const tip = minConf > 1 ? readTip(this.st, this.net) : null;
    if (tip) {
      const recent = this.st.get('SELECT height, position, io, n, txid, value, 0 AS time FROM history WHERE script_id = ? AND height > ?')
        .all(id, tip.height - minConf + 1) as Row[];
      confirmed = withoutRecent(confirmed, recent.map(ioRow));
    }
    return assembleTotals(confirmed, this.mempoolIo(id));
  }

  private cursor(afterTxid: string | undefined): { height: number; position: number } | null {
    if (afterTxid === undefined) return null;
    const row = this.st.get('SELECT height, position FROM txs WHERE net = ? AND txid = ? AND height IS NOT NULL')
      .get(this.net, hexToBytes(afterTxid)) as Row | undefined;
    if (!row) throw new NotFoundError('after_tx', `transaction ${afterTxid} is not confirmed`);
    return { height: num(row.height), position: num(row.position) };
  }

  async history(script: Uint8Array, o: HistoryOptions): Promise<AddressHistoryEntry[]> {
    const row = this.scriptRow(script);
    if (!row) return [];
    const id = num(row.id);
    const cur = this.cursor(o.afterTxid);
    const desc = o.direction === 'desc';
    const ioFilter = o.kind === 'received' ? ' AND io = 0' : o.kind === 'spent' ? ' AND io = 1' : '';
    const cmp = cur ? ` AND (height, position) ${desc ? '<' : '>'} (?, ?)` : '';
    const args = cur ? [id, cur.height, cur.position] : [id];
    const order = desc ? 'height DESC, position DESC' : 'height, position';
    const detail = this.st.get(`SELECT h.height, h.position, h.io, h.n, h.txid, h.value, b.time FROM history h
      JOIN blocks b ON b.net = ? AND b.height = h.height AND b.is_orphan = 0
      WHERE h.script_id = ? AND h.height BETWEEN ? AND ? ORDER BY h.height ${desc ? 'DESC' : ''}, h.position ${desc ? 'DESC' : ''}, h.io, h.n`);
    return pageConfirmedThenMempool<AddressHistoryEntry>({
      confirmed: async (limit, offset) => {
        const keys = this.st.get(`SELECT DISTINCT height, position FROM history WHERE script_id = ?${ioFilter}${cmp} ORDER BY ${order} LIMIT ? OFFSET ?`)
          .all(...args, limit, offset) as Row[];
        if (keys.length === 0) return [];
        const wanted = new Set(keys.map((k) => `${num(k.height)}:${num(k.position)}`));
        const heights = keys.map((k) => num(k.height));
        const rows = (detail.all(this.net, id, Math.min(...heights), Math.max(...heights)) as Row[]).map(ioRow)
          .filter((r) => wanted.has(`${r.height}:${r.position}`));
        return groupIoRows(rows);
      },
      confirmedCount: async () => num((this.st.get(`SELECT COUNT(*) AS c FROM (SELECT DISTINCT height, position FROM history WHERE script_id = ?${ioFilter}${cmp})`)
        .get(...args) as Row).c),
      mempool: async () => sortMempoolEntries(groupIoRows(this.mempoolIo(id))).filter((e) => matchesKind(e, o.kind)),
    }, { limit: o.limit, offset: o.offset ?? 0, direction: o.direction, hasCursor: cur !== null, includeMempool: o.includeMempool ?? true });
  }

  async unspent(script: Uint8Array, o: UnspentOptions): Promise<UnspentOutput[]> {
    const row = this.scriptRow(script);
    if (!row) return [];
    const id = num(row.id);
    const stored = row.script as Buffer;
    const cur = this.cursor(o.afterTxid);
    const cmp = cur ? ' AND (o.height, o.position) > (?, ?)' : '';
    const args = cur ? [id, cur.height, cur.position] : [id];
    const notSpentInMempool = 'NOT EXISTS (SELECT 1 FROM mempool_spends m WHERE m.net = o.net AND m.prev_txid = o.txid AND m.prev_vout = o.vout)';
    const toOutput = (r: Row, confirmed: boolean): UnspentOutput => ({
      txid: bytesToHex(r.txid as Buffer), vout: num(r.vout), value: big(r.value), script: stored,
      height: confirmed ? num(r.height) : null, time: num(r.time),
    });
    return pageConfirmedThenMempool<UnspentOutput>({
      confirmed: async (limit, offset) => (this.st.get(`SELECT o.txid, o.vout, o.value, o.height, b.time FROM outputs o
          JOIN blocks b ON b.net = o.net AND b.height = o.height AND b.is_orphan = 0
          WHERE o.script_id = ? AND o.spent_txid IS NULL${cmp} AND ${notSpentInMempool}
          ORDER BY o.height, o.position, o.vout LIMIT ? OFFSET ?`).all(...args, limit, offset) as Row[]).map((r) => toOutput(r, true)),
      confirmedCount: async () => num((this.st.get(`SELECT COUNT(*) AS c FROM outputs o
          WHERE o.script_id = ? AND o.spent_txid IS NULL${cmp} AND ${notSpentInMempool}`).get(...args) as Row).c),
      mempool: async () => sortMempoolEntries((this.st.get(`SELECT o.txid, o.vout, o.value, t.seen_at AS time FROM mempool_outputs o
          JOIN mempool_txs t ON t.net = o.net AND t.txid = o.txid
          WHERE o.script_id = ? AND ${notSpentInMempool} ORDER BY o.vout`).all(id) as Row[]).map((r) => toOutput(r, false))),
    }, { limit: o.limit, offset: o.offset ?? 0, direction: 'asc', hasCursor: cur !== null, includeMempool: o.includeMempool });
  }
}
