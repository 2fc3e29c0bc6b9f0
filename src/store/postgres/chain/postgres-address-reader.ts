/**
 * Address reads for PostgreSQL (compact chain layout): totals, FIFO history and unspent outputs. A page of history is
 * one statement (ids, then each tx's outputs paying the script and inputs spending from it), not one per tx; the
 * common requests (balance, first pages) are one round trip with the script lookup (postgres-address-oneshot.ts).
 */
import { NotFoundError } from '../../../core/domain/errors.js';
import type { AddressHistoryEntry, AddressTotals, AddressTotalsOptions, HistoryOptions, UnspentOptions, UnspentOutput } from '../../../core/store/chain-reads.js';
import { bytesToHex } from '../../common/schema/codec.js';
import {
  assembleTotals, groupIoRows, matchesKind, mempoolSumsOf, mempoolSumsSql, NO_MEMPOOL, NO_TOTALS, pageConfirmedThenMempool, sortMempoolEntries, storedTotals,
  withoutRecent, type IoRow,
} from '../../common/chain-reads/history-assembly.js';
import { FUNDS, SPENDS } from '../../common/chain-writes/tx-effects.js';
import { readTip } from '../../common/schema/network-rows.js';
import type { PgNet } from './postgres-net.js';
import { blockOfTx, historyOneShot, ioRow, mempoolIoSql, totalsOneShot, unspentOneShot, type UnspentRow } from './postgres-address-oneshot.js';
import { findScript } from './postgres-scripts.js';
import { runPostgres } from '../connection/postgres-plans.js';
import { big, num, one, rows, type Queryable, type Row } from '../connection/postgres-sql.js';

export class PostgresAddressReader {
  constructor(private readonly db: Queryable, private readonly n: PgNet) {}

  private async mempoolIo(key: number): Promise<IoRow[]> {
    return (await rows(this.db, mempoolIoSql(this.n, '$1'), [key])).map((r) => ioRow({ ...r, height: null, position: null }));
  }

  /** The script's base key: the one-shot reads try it first (see postgres-address-oneshot.ts). */
  private async baseKey(script: Uint8Array): Promise<number> {
    return (await this.n.keys(this.db)).base(script);
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
    const minConf = Math.max(1, options.minConfirmations ?? 1);
    const txCount = options.mempoolTxCount ?? true;
    if (minConf === 1) {
      const one = await totalsOneShot(this.db, this.n, await this.baseKey(script), script, txCount);
      if (one && !one.stored) return assembleTotals(NO_TOTALS, NO_MEMPOOL);
      if (one?.stored) return assembleTotals(storedTotals(one.script!), one.mempool);
    }
    const { row, key } = await findScript(this.db, this.n, script);
    if (!row) return assembleTotals(NO_TOTALS, NO_MEMPOOL);
    let confirmed = storedTotals(row);
    // The tip only matters for deeper confirmation counts: the common case skips the read.
    const tip = minConf > 1 ? await runPostgres(this.db, readTip(this.n.net)) : null;
    if (tip) {
      const cutoff = await one(this.db, `SELECT first_tx FROM ${this.n.t.blocks} WHERE height > $1 AND NOT is_orphan ORDER BY height LIMIT 1`,
        [tip.height - minConf + 1]);
      if (cutoff) {
        const recent = await this.confirmedIo(`SELECT id FROM ${this.n.t.history} WHERE script = $1 AND id >= $2`, [key, num(cutoff.first_tx)], 'ASC');
        confirmed = withoutRecent(confirmed, recent);
      }
    }
    return assembleTotals(confirmed, mempoolSumsOf((await one(this.db, `SELECT ${mempoolSumsSql(this.n.t.mempoolOutputs, this.n.t.mempoolSpends, '$1', txCount, 'whole')}`, [key]))!));
  }

  /** The id of a confirmed tx (the paging cursor); NotFoundError when it is not in the main chain. */
  private async cursor(afterTxid: string | undefined): Promise<number | null> {
    if (afterTxid === undefined) return null;
    const id = await runPostgres(this.db, this.n.reads.confirmedId(afterTxid));
    if (id === null) throw new NotFoundError('after_tx', `transaction ${afterTxid} is not confirmed`);
    return id;
  }

  async history(script: Uint8Array, o: HistoryOptions): Promise<AddressHistoryEntry[]> {
    const kind = o.kind === 'received' ? ` AND (flags & ${FUNDS}) != 0` : o.kind === 'spent' ? ` AND (flags & ${SPENDS}) != 0` : '';
    const paging = { limit: o.limit, offset: o.offset ?? 0, direction: o.direction, includeMempool: o.includeMempool ?? true };
    const mempoolOf = (rows: IoRow[]): AddressHistoryEntry[] => sortMempoolEntries(groupIoRows(rows)).filter((e) => matchesKind(e, o.kind));
    // A first FIFO page (the common request) in one round trip; a page after a cursor or newest first takes the general path.
    if (o.direction === 'asc' && o.afterTxid === undefined) {
      if (o.limit <= 0) return [];
      const one = await historyOneShot(this.db, this.n, await this.baseKey(script), script,
        { filter: kind, cursor: null, limit: o.limit, offset: paging.offset, mempool: paging.includeMempool });
      if (one && !one.stored) return [];
      if (one?.stored) {
        const confirmed = groupIoRows(one.page);
        const count = `SELECT COUNT(*) AS c FROM ${this.n.t.history} WHERE script = $1${kind}`;
        return pageConfirmedThenMempool<AddressHistoryEntry>({
          confirmed: async () => confirmed,
          confirmedCount: async () => num((await rows(this.db, count, [one.key]))[0]!.c),
          mempool: async () => mempoolOf(one.mempool),
        }, { ...paging, hasCursor: false });
      }
    }
    const { row, key } = await findScript(this.db, this.n, script);
    if (!row) return [];
    const cur = await this.cursor(o.afterTxid);
    const desc = o.direction === 'desc';
    const cmp = cur !== null ? ` AND id ${desc ? '<' : '>'} $2` : '';
    const args: unknown[] = cur !== null ? [key, cur] : [key];
    const p = args.length;
    const order = desc ? 'DESC' : 'ASC';
    const where = `FROM ${this.n.t.history} WHERE script = $1${kind}${cmp}`;
    return pageConfirmedThenMempool<AddressHistoryEntry>({
      confirmed: async (limit, offset) => groupIoRows(await this.confirmedIo(`SELECT id ${where} ORDER BY id ${order} LIMIT $${p + 1} OFFSET $${p + 2}`,
        [...args, limit, offset], order)),
      confirmedCount: async () => num((await one(this.db, `SELECT COUNT(*) AS c ${where}`, args))!.c),
      mempool: async () => mempoolOf(await this.mempoolIo(key)),
    }, { ...paging, hasCursor: cur !== null });
  }

  async unspent(script: Uint8Array, o: UnspentOptions): Promise<UnspentOutput[]> {
    const paging = { limit: o.limit, offset: o.offset ?? 0, direction: 'asc' as const, includeMempool: o.includeMempool };
    if (o.afterTxid === undefined) {
      if (o.limit <= 0) return [];
      const one = await unspentOneShot(this.db, this.n, await this.baseKey(script), script,
        { cursor: null, limit: o.limit, offset: paging.offset, mempool: o.includeMempool });
      if (one && !one.stored) return [];
      if (one?.stored) {
        // The same shape as the general path's outputs (the stored bytes as a Buffer, equal to the script asked for).
        const stored = Buffer.from(script);
        const output = (r: UnspentRow): UnspentOutput => ({ txid: r.txid, vout: r.vout, value: r.value, script: stored, height: r.height, time: r.time });
        const confirmed = one.page.map(output);
        return pageConfirmedThenMempool<UnspentOutput>({
          confirmed: async () => confirmed,
          confirmedCount: async () => num((await rows(this.db, `SELECT COUNT(*) AS c FROM ${this.n.t.outputs} o JOIN ${this.n.t.txs} tx ON tx.id = o.id
            WHERE o.script = $1 AND o.spent_by IS NULL AND NOT EXISTS (SELECT 1 FROM ${this.n.t.mempoolSpends} m
              WHERE m.prev_txid = tx.txid AND m.prev_vout = o.vout)`, [one.key]))[0]!.c),
          mempool: async () => sortMempoolEntries(one.mempool.map(output)),
        }, { ...paging, hasCursor: false });
      }
    }
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
    }, { ...paging, hasCursor: cur !== null });
  }
}
