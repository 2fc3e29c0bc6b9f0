/** Address reads for PostgreSQL: totals, FIFO history and unspent outputs. */
import { NotFoundError } from '../../core/errors.js';
import type { AddressHistoryEntry, AddressTotals, AddressTotalsOptions, HistoryOptions, UnspentOptions, UnspentOutput } from '../../core/store.js';
import { bytesToHex, hexToBytes } from '../common/codec.js';
import {
  assembleTotals, groupIoRows, matchesKind, pageConfirmedThenMempool, sortMempoolEntries, withoutRecent, type IoRow,
} from '../common/history-assembly.js';
import { readTip } from './postgres-chain-writer.js';
import { big, num, one, rows, type Queryable, type Row } from './postgres-sql.js';

const MEMPOOL_IO = `SELECT t.txid, t.seen_at AS time, 0 AS io, o.vout AS n, o.value FROM mempool_outputs o
    JOIN mempool_txs t ON t.net = o.net AND t.txid = o.txid WHERE o.script_id = $1
  UNION ALL SELECT t.txid, t.seen_at AS time, 1 AS io, s.vin AS n, s.value FROM mempool_spends s
    JOIN mempool_txs t ON t.net = s.net AND t.txid = s.txid WHERE s.script_id = $1`;
const NOT_SPENT_IN_MEMPOOL = 'NOT EXISTS (SELECT 1 FROM mempool_spends m WHERE m.net = o.net AND m.prev_txid = o.txid AND m.prev_vout = o.vout)';

function ioRow(r: Row): IoRow {
  return {
    txid: bytesToHex(r.txid as Buffer), height: r.height == null ? null : num(r.height), position: r.position == null ? null : num(r.position),
    time: num(r.time), io: num(r.io), n: num(r.n), value: big(r.value),
  };
}

export class PostgresAddressReader {
  constructor(private readonly db: Queryable, private readonly net: number) {}

  private scriptRow(script: Uint8Array): Promise<Row | undefined> {
    return one(this.db, 'SELECT * FROM scripts WHERE net = $1 AND script = $2', [this.net, Buffer.from(script)]);
  }

  private async mempoolIo(scriptId: number): Promise<IoRow[]> {
    return (await rows(this.db, MEMPOOL_IO, [scriptId])).map((r) => ioRow({ ...r, height: null, position: null }));
  }

  async totals(script: Uint8Array, options: AddressTotalsOptions = {}): Promise<AddressTotals> {
    const row = await this.scriptRow(script);
    if (!row) return assembleTotals({ received: 0n, sent: 0n, txCount: 0, receivedCount: 0, sentCount: 0 }, []);
    const id = num(row.id);
    let confirmed = {
      received: big(row.received), sent: big(row.sent), txCount: num(row.tx_count),
      receivedCount: num(row.received_count), sentCount: num(row.sent_count),
    };
    const minConf = Math.max(1, options.minConfirmations ?? 1);
    // The tip only matters for deeper confirmation counts: the common case skips the read.
    const tip = minConf > 1 ? await readTip(this.db, this.net) : null;
    if (tip) {
      const recent = await rows(this.db, 'SELECT height, position, io, n, txid, value, 0 AS time FROM history WHERE script_id = $1 AND height > $2',
        [id, tip.height - minConf + 1]);
      confirmed = withoutRecent(confirmed, recent.map(ioRow));
    }
    return assembleTotals(confirmed, await this.mempoolIo(id));
  }

  private async cursor(afterTxid: string | undefined): Promise<{ height: number; position: number } | null> {
    if (afterTxid === undefined) return null;
    const row = await one(this.db, 'SELECT height, position FROM txs WHERE net = $1 AND txid = $2 AND height IS NOT NULL', [this.net, hexToBytes(afterTxid)]);
    if (!row) throw new NotFoundError('after_tx', `transaction ${afterTxid} is not confirmed`);
    return { height: num(row.height), position: num(row.position) };
  }

  async history(script: Uint8Array, o: HistoryOptions): Promise<AddressHistoryEntry[]> {
    const row = await this.scriptRow(script);
    if (!row) return [];
    const id = num(row.id);
    const cur = await this.cursor(o.afterTxid);
    const desc = o.direction === 'desc';
    const ioFilter = o.kind === 'received' ? ' AND io = 0' : o.kind === 'spent' ? ' AND io = 1' : '';
    const cmp = cur ? ` AND (height, position) ${desc ? '<' : '>'} ($2, $3)` : '';
    const args: unknown[] = cur ? [id, cur.height, cur.position] : [id];
    const order = desc ? 'height DESC, position DESC' : 'height, position';
    const p = args.length;
    return pageConfirmedThenMempool<AddressHistoryEntry>({
      confirmed: async (limit, offset) => {
        const keys = await rows(this.db, `SELECT DISTINCT height, position FROM history WHERE script_id = $1${ioFilter}${cmp}
          ORDER BY ${order} LIMIT $${p + 1} OFFSET $${p + 2}`, [...args, limit, offset]);
        if (keys.length === 0) return [];
        const wanted = new Set(keys.map((k) => `${num(k.height)}:${num(k.position)}`));
        const heights = keys.map((k) => num(k.height));
        const detail = await rows(this.db, `SELECT h.height, h.position, h.io, h.n, h.txid, h.value, b.time FROM history h
          JOIN blocks b ON b.net = $1 AND b.height = h.height AND NOT b.is_orphan
          WHERE h.script_id = $2 AND h.height BETWEEN $3 AND $4 ORDER BY ${desc ? 'h.height DESC, h.position DESC' : 'h.height, h.position'}, h.io, h.n`,
        [this.net, id, Math.min(...heights), Math.max(...heights)]);
        return groupIoRows(detail.map(ioRow).filter((r) => wanted.has(`${r.height}:${r.position}`)));
      },
      confirmedCount: async () => num((await one(this.db, `SELECT COUNT(*) AS c FROM (SELECT DISTINCT height, position FROM history
          WHERE script_id = $1${ioFilter}${cmp}) d`, args))!.c),
      mempool: async () => sortMempoolEntries(groupIoRows(await this.mempoolIo(id))).filter((e) => matchesKind(e, o.kind)),
    }, { limit: o.limit, offset: o.offset ?? 0, direction: o.direction, hasCursor: cur !== null, includeMempool: o.includeMempool ?? true });
  }

  async unspent(script: Uint8Array, o: UnspentOptions): Promise<UnspentOutput[]> {
    const row = await this.scriptRow(script);
    if (!row) return [];
    const id = num(row.id);
    const stored = row.script as Buffer;
    const cur = await this.cursor(o.afterTxid);
    const cmp = cur ? ' AND (o.height, o.position) > ($2, $3)' : '';
    const args: unknown[] = cur ? [id, cur.height, cur.position] : [id];
    const p = args.length;
    const toOutput = (r: Row, confirmed: boolean): UnspentOutput => ({
      txid: bytesToHex(r.txid as Buffer), vout: num(r.vout), value: big(r.value), script: stored,
      height: confirmed ? num(r.height) : null, time: num(r.time),
    });
    return pageConfirmedThenMempool<UnspentOutput>({
      confirmed: async (limit, offset) => (await rows(this.db, `SELECT o.txid, o.vout, o.value, o.height, b.time FROM outputs o
          JOIN blocks b ON b.net = o.net AND b.height = o.height AND NOT b.is_orphan
          WHERE o.script_id = $1 AND o.spent_txid IS NULL${cmp} AND ${NOT_SPENT_IN_MEMPOOL}
          ORDER BY o.height, o.position, o.vout LIMIT $${p + 1} OFFSET $${p + 2}`, [...args, limit, offset])).map((r) => toOutput(r, true)),
      confirmedCount: async () => num((await one(this.db, `SELECT COUNT(*) AS c FROM outputs o
          WHERE o.script_id = $1 AND o.spent_txid IS NULL${cmp} AND ${NOT_SPENT_IN_MEMPOOL}`, args))!.c),
      mempool: async () => sortMempoolEntries((await rows(this.db, `SELECT o.txid, o.vout, o.value, t.seen_at AS time FROM mempool_outputs o
          JOIN mempool_txs t ON t.net = o.net AND t.txid = o.txid
          WHERE o.script_id = $1 AND ${NOT_SPENT_IN_MEMPOOL} ORDER BY o.vout`, [id])).map((r) => toOutput(r, false))),
    }, { limit: o.limit, offset: o.offset ?? 0, direction: 'asc', hasCursor: cur !== null, includeMempool: o.includeMempool });
  }
}
