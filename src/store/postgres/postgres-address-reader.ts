/**
 * Address reads for PostgreSQL (compact chain layout): totals, FIFO history and unspent outputs. A page of history is
 * one statement (ids, then each tx's outputs paying the script and inputs spending from it), not one per tx.
 */
import { NotFoundError } from '../../core/errors.js';
import type { AddressHistoryEntry, AddressTotals, AddressTotalsOptions, HistoryOptions, UnspentOptions, UnspentOutput } from '../../core/store.js';
import { bytesToHex, hexToBytes } from '../common/codec.js';
import {
  assembleTotals, groupIoRows, matchesKind, pageConfirmedThenMempool, sortMempoolEntries, withoutRecent, type IoRow,
} from '../common/history-assembly.js';
import { FUNDS, SPENDS } from '../common/tx-effects.js';
import { blockOfTx, txidIs } from './postgres-chain-reader.js';
import { readTip } from './postgres-chain-writer.js';
import type { PgNet } from './postgres-net.js';
import { findScript } from './postgres-scripts.js';
import { big, num, one, rows, type Queryable, type Row } from './postgres-sql.js';

function ioRow(r: Row): IoRow {
  return {
    txid: bytesToHex(r.txid as Buffer), height: r.height == null ? null : num(r.height), position: r.position == null ? null : num(r.position),
    time: num(r.time), io: num(r.io), n: num(r.n), value: big(r.value),
  };
}

export class PostgresAddressReader {
  constructor(private readonly db: Queryable, private readonly n: PgNet) {}

  private async mempoolIo(key: number): Promise<IoRow[]> {
    const { t } = this.n;
    return (await rows(this.db, `SELECT t.txid, t.seen_at AS time, 0 AS io, o.vout AS n, o.value FROM ${t.mempoolOutputs} o
        JOIN ${t.mempoolTxs} t ON t.txid = o.txid WHERE o.script = $1
      UNION ALL SELECT t.txid, t.seen_at AS time, 1 AS io, s.vin AS n, s.value FROM ${t.mempoolSpends} s
        JOIN ${t.mempoolTxs} t ON t.txid = s.txid WHERE s.script = $1`, [key])).map((r) => ioRow({ ...r, height: null, position: null }));
  }

  /**
   * The io rows of the confirmed txs `ids` (a subquery of history ids, in the order wanted) for script $1: the outputs
   * paying it and the inputs spending from it, with each tx's txid and block.
   */
  private async confirmedIo(ids: string, args: unknown[], order: 'ASC' | 'DESC'): Promise<IoRow[]> {
    const { t } = this.n;
    const found = await rows(this.db, `WITH page AS (${ids})
      SELECT tx.txid, b.height, p.id - b.first_tx AS position, b.time, x.io, x.n, x.value FROM page p
        JOIN ${t.txs} tx ON tx.id = p.id ${blockOfTx(t.blocks, 'p.id')}
        CROSS JOIN LATERAL (SELECT 0 AS io, o.vout AS n, o.value FROM ${t.outputs} o WHERE o.id = p.id AND o.script = $1
          UNION ALL SELECT 1, o.spent_vin, o.value FROM ${t.outputs} o WHERE o.spent_by = p.id AND o.script = $1) x
      ORDER BY p.id ${order}`, args);
    return found.map(ioRow);
  }

  async totals(script: Uint8Array, options: AddressTotalsOptions = {}): Promise<AddressTotals> {
    const { row, key } = await findScript(this.db, this.n, script);
    if (!row) return assembleTotals({ received: 0n, sent: 0n, txCount: 0, receivedCount: 0, sentCount: 0 }, []);
    let confirmed = {
      received: big(row.received), sent: big(row.sent), txCount: num(row.tx_count),
      receivedCount: num(row.received_count), sentCount: num(row.sent_count),
    };
    const minConf = Math.max(1, options.minConfirmations ?? 1);
    // The tip only matters for deeper confirmation counts: the common case skips the read.
    const tip = minConf > 1 ? await readTip(this.db, this.n) : null;
    if (tip) {
      const cutoff = await one(this.db, `SELECT first_tx FROM ${this.n.t.blocks} WHERE height > $1 AND NOT is_orphan ORDER BY height LIMIT 1`,
        [tip.height - minConf + 1]);
      if (cutoff) {
        const recent = await this.confirmedIo(`SELECT id FROM ${this.n.t.history} WHERE script = $1 AND id >= $2`, [key, num(cutoff.first_tx)], 'ASC');
        confirmed = withoutRecent(confirmed, recent);
      }
    }
    return assembleTotals(confirmed, await this.mempoolIo(key));
  }

  /** The id of a confirmed tx (the paging cursor); NotFoundError when it is not in the main chain. */
  private async cursor(afterTxid: string | undefined): Promise<number | null> {
    if (afterTxid === undefined) return null;
    const { t } = this.n;
    const row = await one(this.db, `SELECT t.id FROM ${t.txs} t ${blockOfTx(t.blocks, 't.id')}
      WHERE ${txidIs('t')} AND t.id < b.first_tx + b.tx_count AND NOT b.is_orphan ORDER BY t.id DESC LIMIT 1`, [hexToBytes(afterTxid)]);
    if (!row) throw new NotFoundError('after_tx', `transaction ${afterTxid} is not confirmed`);
    return num(row.id);
  }

  async history(script: Uint8Array, o: HistoryOptions): Promise<AddressHistoryEntry[]> {
    const { row, key } = await findScript(this.db, this.n, script);
    if (!row) return [];
    const cur = await this.cursor(o.afterTxid);
    const desc = o.direction === 'desc';
    const kind = o.kind === 'received' ? ` AND (flags & ${FUNDS}) != 0` : o.kind === 'spent' ? ` AND (flags & ${SPENDS}) != 0` : '';
    const cmp = cur !== null ? ` AND id ${desc ? '<' : '>'} $2` : '';
    const args: unknown[] = cur !== null ? [key, cur] : [key];
    const p = args.length;
    const order = desc ? 'DESC' : 'ASC';
    const where = `FROM ${this.n.t.history} WHERE script = $1${kind}${cmp}`;
    return pageConfirmedThenMempool<AddressHistoryEntry>({
      confirmed: async (limit, offset) => groupIoRows(await this.confirmedIo(`SELECT id ${where} ORDER BY id ${order} LIMIT $${p + 1} OFFSET $${p + 2}`,
        [...args, limit, offset], order)),
      confirmedCount: async () => num((await one(this.db, `SELECT COUNT(*) AS c ${where}`, args))!.c),
      mempool: async () => sortMempoolEntries(groupIoRows(await this.mempoolIo(key))).filter((e) => matchesKind(e, o.kind)),
    }, { limit: o.limit, offset: o.offset ?? 0, direction: o.direction, hasCursor: cur !== null, includeMempool: o.includeMempool ?? true });
  }

  async unspent(script: Uint8Array, o: UnspentOptions): Promise<UnspentOutput[]> {
    const { row, key } = await findScript(this.db, this.n, script);
    if (!row) return [];
    const { t } = this.n;
    const stored = row.script as Buffer;
    const cur = await this.cursor(o.afterTxid);
    const cmp = cur !== null ? ' AND o.id > $2' : '';
    const args: unknown[] = cur !== null ? [key, cur] : [key];
    const p = args.length;
    const notSpentInMempool = `NOT EXISTS (SELECT 1 FROM ${t.mempoolSpends} m WHERE m.prev_txid = tx.txid AND m.prev_vout = o.vout)`;
    const toOutput = (r: Row, confirmed: boolean): UnspentOutput => ({
      txid: bytesToHex(r.txid as Buffer), vout: num(r.vout), value: big(r.value), script: stored,
      height: confirmed ? num(r.height) : null, time: num(r.time),
    });
    const confirmedFrom = `FROM ${t.outputs} o JOIN ${t.txs} tx ON tx.id = o.id
      WHERE o.script = $1 AND o.spent_by IS NULL${cmp} AND ${notSpentInMempool}`;
    return pageConfirmedThenMempool<UnspentOutput>({
      // The page first, then the block of each of its outputs.
      confirmed: async (limit, offset) => (await rows(this.db, `SELECT u.txid, u.vout, u.value, b.height, b.time
          FROM (SELECT tx.txid, o.id, o.vout, o.value ${confirmedFrom} ORDER BY o.id, o.vout LIMIT $${p + 1} OFFSET $${p + 2}) u
          ${blockOfTx(t.blocks, 'u.id')} ORDER BY u.id, u.vout`, [...args, limit, offset])).map((r) => toOutput(r, true)),
      confirmedCount: async () => num((await one(this.db, `SELECT COUNT(*) AS c ${confirmedFrom}`, args))!.c),
      mempool: async () => sortMempoolEntries((await rows(this.db, `SELECT o.txid, o.vout, o.value, tx.seen_at AS time FROM ${t.mempoolOutputs} o
          JOIN ${t.mempoolTxs} tx ON tx.txid = o.txid
          WHERE o.script = $1 AND ${notSpentInMempool.replace('tx.txid', 'o.txid')} ORDER BY o.vout`, [key])).map((r) => toOutput(r, false))),
    }, { limit: o.limit, offset: o.offset ?? 0, direction: 'asc', hasCursor: cur !== null, includeMempool: o.includeMempool });
  }
}
