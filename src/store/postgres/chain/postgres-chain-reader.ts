/** Transaction, output, block and mempool reads for PostgreSQL (compact chain layout): few round trips per answer. */
import type { BlockRecord, MempoolInfo, MempoolTxSummary, OutputRecord, SpendRef, TxRecord } from '../../../core/store/chain-reads.js';
import type { PrevoutInfo } from '../../../core/domain/chain-types.js';
import { bytesToHex, hexToBytes, unpackPrevouts } from '../../common/schema/codec.js';
import { chainTxRecord, mempoolTxRecord, storedBlockRecord, storedChainTxRow, type BlockOfTx } from '../../common/chain-reads/tx-record.js';
import type { PgNet } from './postgres-net.js';
import { scriptsByKey } from './postgres-scripts.js';
import { big, num, one, rows, type Queryable, type Row } from '../connection/postgres-sql.js';

/**
 * Joins the block holding tx id `id` as `alias` (block ranges never overlap: the newest block starting at or before
 * the id, which holds it when its range reaches it: callers check `${id} < ${alias}.first_tx + ${alias}.tx_count`).
 */
export function blockOfTx(blocks: string, id: string, alias = 'b'): string {
  return `CROSS JOIN LATERAL (SELECT hash, height, time, is_orphan, first_tx, tx_count FROM ${blocks}
    WHERE first_tx <= ${id} ORDER BY first_tx DESC LIMIT 1) ${alias}`;
}

/** The condition that the stored txs `t` have the txid $1 (through the index on its first 8 bytes). */
export function txidIs(alias: string, param = '$1'): string {
  return `substring(${alias}.txid from 1 for 8) = substring(${param}::bytea from 1 for 8) AND ${alias}.txid = ${param}`;
}

/** The stored copy of a txid to answer with: in a main-chain block if any, else the newest orphaned one. */
export async function chainRow(db: Queryable, n: PgNet, txid: Buffer): Promise<{ row: Row; block: BlockOfTx } | null> {
  const row = await one(db, `SELECT t.*, r.raw, b.hash AS block_hash, b.height AS block_height, b.time AS block_time, b.is_orphan, b.first_tx
    FROM ${n.t.txs} t LEFT JOIN ${n.t.txRaws} r ON r.id = t.id ${blockOfTx(n.t.blocks, 't.id')}
    WHERE ${txidIs('t')} AND t.id < b.first_tx + b.tx_count ORDER BY b.is_orphan, t.id DESC LIMIT 1`, [txid]);
  if (!row) return null;
  const block = {
    hash: bytesToHex(row.block_hash as Buffer), height: num(row.block_height), time: num(row.block_time),
    isOrphan: row.is_orphan as boolean, firstTx: num(row.first_tx),
  };
  return { row, block };
}

export class PostgresChainReader {
  constructor(private readonly db: Queryable, private readonly n: PgNet) {}

  /** What a main-chain tx's inputs spent, in input order (its spent outputs name it), and its fee. */
  private async spentBy(id: number): Promise<{ prevouts: PrevoutInfo[]; fee: bigint }> {
    const { t } = this.n;
    const found = await rows(this.db, `SELECT o.vout, o.value, s.script, t.txid, (SELECT sum(value) FROM ${t.outputs} WHERE id = $1) AS out_sum
      FROM ${t.outputs} o JOIN ${t.scripts} s ON s.key = o.script JOIN ${t.txs} t ON t.id = o.id
      WHERE o.spent_by = $1 ORDER BY o.spent_vin`, [id]);
    const prevouts = found.map((r) => ({ txid: bytesToHex(r.txid as Buffer), vout: num(r.vout), value: big(r.value), script: r.script as Buffer }));
    const fee = prevouts.reduce((s, p) => s + p.value, 0n) - (found.length > 0 ? big(found[0]!.out_sum) : 0n);
    return { prevouts, fee };
  }

  async transaction(txid: string): Promise<TxRecord | null> {
    const key = hexToBytes(txid);
    const chain = await chainRow(this.db, this.n, key);
    if (chain && !chain.block.isOrphan) {
      const id = num(chain.row.id);
      if (id === chain.block.firstTx) return chainTxRecord(txid, storedChainTxRow(chain.row), chain.block, [null], null);
      const { prevouts, fee } = await this.spentBy(id);
      return chainTxRecord(txid, storedChainTxRow(chain.row), chain.block, prevouts, fee);
    }
    // A confirmed tx's mempool row was deleted on confirmation (its first-seen time moved to txs).
    const m = await one(this.db, `SELECT * FROM ${this.n.t.mempoolTxs} WHERE txid = $1`, [key]);
    if (m) {
      const stored = unpackPrevouts(m.prevouts as Buffer);
      const scripts = await scriptsByKey(this.db, this.n, stored.flatMap((p) => (p ? [p.scriptId] : [])));
      return mempoolTxRecord(txid, m, stored, scripts);
    }
    if (!chain) return null;
    // Orphaned: its inputs are unspent again; what they spent was kept on the row when its block was disconnected.
    const stored = unpackPrevouts(chain.row.orphan_prevouts as Buffer);
    const scripts = await scriptsByKey(this.db, this.n, stored.flatMap((p) => (p ? [p.scriptId] : [])));
    const prevouts = stored.map((p) => (p ? { txid: p.txid, vout: p.vout, value: p.value, script: scripts.get(p.scriptId)! } : null));
    const fee = chain.row.orphan_fee === null ? null : big(chain.row.orphan_fee);
    return chainTxRecord(txid, storedChainTxRow(chain.row), chain.block, prevouts, fee);
  }

  async outputs(txid: string): Promise<OutputRecord[] | null> {
    const { t } = this.n;
    const key = hexToBytes(txid);
    const chain = await chainRow(this.db, this.n, key);
    const confirmed = chain !== null && !chain.block.isOrphan;
    if (!confirmed && (await one(this.db, `SELECT 1 FROM ${t.mempoolTxs} WHERE txid = $1 AND NOT removed`, [key])) === undefined) return null;
    const outs = confirmed
      ? await rows(this.db, `SELECT o.vout, o.value, s.script, sp.txid AS spent_txid, o.spent_vin FROM ${t.outputs} o
          JOIN ${t.scripts} s ON s.key = o.script LEFT JOIN ${t.txs} sp ON sp.id = o.spent_by WHERE o.id = $1 ORDER BY o.vout`, [num(chain.row.id)])
      : await rows(this.db, `SELECT o.vout, o.value, s.script, NULL AS spent_txid, NULL AS spent_vin FROM ${t.mempoolOutputs} o
          JOIN ${t.scripts} s ON s.key = o.script WHERE o.txid = $1 ORDER BY o.vout`, [key]);
    const mempoolSpends = new Map<number, SpendRef>();
    for (const r of await rows(this.db, `SELECT prev_vout, txid, vin FROM ${t.mempoolSpends} WHERE prev_txid = $1 ORDER BY prev_vout, txid`, [key])) {
      if (!mempoolSpends.has(num(r.prev_vout))) mempoolSpends.set(num(r.prev_vout), { txid: bytesToHex(r.txid as Buffer), vin: num(r.vin), confirmed: false });
    }
    return outs.map((r) => ({
      vout: num(r.vout), value: big(r.value), script: r.script as Buffer,
      spentBy: r.spent_txid ? { txid: bytesToHex(r.spent_txid as Buffer), vin: num(r.spent_vin), confirmed: true } : mempoolSpends.get(num(r.vout)) ?? null,
    }));
  }

  private async block(row: Row | undefined): Promise<BlockRecord | null> {
    if (!row) return null;
    const { t } = this.n;
    const next = row.is_orphan ? undefined : await one(this.db, `SELECT hash FROM ${t.blocks} WHERE height = $1 AND NOT is_orphan`, [num(row.height) + 1]);
    const first = num(row.first_tx);
    const txids = (await rows(this.db, `SELECT txid FROM ${t.txs} WHERE id BETWEEN $1 AND $2 ORDER BY id`, [first, first + num(row.tx_count) - 1]))
      .map((r) => bytesToHex(r.txid as Buffer));
    return storedBlockRecord(row, txids, next ? bytesToHex(next.hash as Buffer) : null);
  }

  async blockByHash(hash: string): Promise<BlockRecord | null> {
    return this.block(await one(this.db, `SELECT * FROM ${this.n.t.blocks} WHERE hash = $1`, [hexToBytes(hash)]));
  }

  async blockByHeight(height: number): Promise<BlockRecord | null> {
    return this.block(await one(this.db, `SELECT * FROM ${this.n.t.blocks} WHERE height = $1 AND NOT is_orphan`, [height]));
  }

  async mainChainHash(height: number): Promise<string | null> {
    const row = await one(this.db, `SELECT hash FROM ${this.n.t.blocks} WHERE height = $1 AND NOT is_orphan`, [height]);
    return row ? bytesToHex(row.hash as Buffer) : null;
  }

  async mempoolInfo(): Promise<MempoolInfo> {
    const row = (await one(this.db, `SELECT COUNT(*) AS c, COALESCE(SUM(size), 0) AS b, COALESCE(SUM((weight + 3) / 4), 0) AS v
      FROM ${this.n.t.mempoolTxs} WHERE NOT removed`))!;
    return { count: num(row.c), bytes: num(row.b), vbytes: num(row.v) };
  }

  async mempoolEntries(): Promise<MempoolTxSummary[]> {
    return (await rows(this.db, `SELECT txid, fee, size, weight, seen_at FROM ${this.n.t.mempoolTxs} WHERE NOT removed`))
      .map((r) => ({
        txid: bytesToHex(r.txid as Buffer), fee: big(r.fee), size: num(r.size), vsize: Math.ceil(num(r.weight) / 4), weight: num(r.weight), seenAt: num(r.seen_at),
      }));
  }

  async mempoolTxids(): Promise<string[]> {
    return (await rows(this.db, `SELECT txid FROM ${this.n.t.mempoolTxs} WHERE NOT removed ORDER BY seen_at, txid`))
      .map((r) => bytesToHex(r.txid as Buffer));
  }
}
