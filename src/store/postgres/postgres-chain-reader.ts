/** Transaction, output, block and mempool reads for PostgreSQL. */
import type { BlockRecord, MempoolInfo, MempoolTxSummary, OutputRecord, SpendRef, TxRecord } from '../../core/store.js';
import { bytesToHex, hexToBytes, unpackTxids } from '../common/codec.js';
import { assembleTxRecord, txPrevouts, txStatus } from '../common/tx-record.js';
import { scriptsById } from './postgres-scripts.js';
import { big, num, one, rows, type Queryable, type Row } from './postgres-sql.js';

export class PostgresChainReader {
  constructor(private readonly db: Queryable, private readonly net: number) {}

  async transaction(txid: string): Promise<TxRecord | null> {
    const id = hexToBytes(txid);
    const c = await one(this.db, `SELECT t.*, b.time AS block_time FROM txs t LEFT JOIN blocks b ON b.net = t.net AND b.hash = t.block_hash
      WHERE t.net = $1 AND t.txid = $2`, [this.net, id]);
    // A confirmed tx's mempool row was deleted on confirmation (its first-seen time moved to txs): no need to look.
    const m = c && c.height !== null ? undefined : await one(this.db, 'SELECT * FROM mempool_txs WHERE net = $1 AND txid = $2', [this.net, id]);
    const status = txStatus(c, m);
    if (status === null) return null;
    const prevouts = txPrevouts(status, c, m);
    const scripts = await scriptsById(this.db, prevouts.flatMap((p) => (p ? [p.scriptId] : [])));
    return assembleTxRecord(txid, status, c, m, prevouts, scripts);
  }

  async outputs(txid: string): Promise<OutputRecord[] | null> {
    const id = hexToBytes(txid);
    const confirmed = (await one(this.db, 'SELECT 1 FROM txs WHERE net = $1 AND txid = $2 AND height IS NOT NULL', [this.net, id])) !== undefined;
    if (!confirmed && (await one(this.db, 'SELECT 1 FROM mempool_txs WHERE net = $1 AND txid = $2 AND NOT removed', [this.net, id])) === undefined) {
      return null;
    }
    const outs = await rows(this.db, confirmed
      ? `SELECT o.vout, o.value, s.script, o.spent_txid, o.spent_vin FROM outputs o JOIN scripts s ON s.id = o.script_id
          WHERE o.net = $1 AND o.txid = $2 ORDER BY o.vout`
      : `SELECT o.vout, o.value, s.script, NULL AS spent_txid, NULL AS spent_vin FROM mempool_outputs o
          JOIN scripts s ON s.id = o.script_id WHERE o.net = $1 AND o.txid = $2 ORDER BY o.vout`, [this.net, id]);
    const mempoolSpends = new Map<number, SpendRef>();
    for (const r of await rows(this.db, 'SELECT prev_vout, txid, vin FROM mempool_spends WHERE net = $1 AND prev_txid = $2', [this.net, id])) {
      if (!mempoolSpends.has(num(r.prev_vout))) mempoolSpends.set(num(r.prev_vout), { txid: bytesToHex(r.txid as Buffer), vin: num(r.vin), confirmed: false });
    }
    return outs.map((r) => ({
      vout: num(r.vout), value: big(r.value), script: r.script as Buffer,
      spentBy: r.spent_txid
        ? { txid: bytesToHex(r.spent_txid as Buffer), vin: num(r.spent_vin), confirmed: true }
        : mempoolSpends.get(num(r.vout)) ?? null,
    }));
  }

  private async block(row: Row | undefined): Promise<BlockRecord | null> {
    if (!row) return null;
    const height = num(row.height);
    const isOrphan = row.is_orphan as boolean;
    const next = isOrphan ? undefined : await one(this.db, 'SELECT hash FROM blocks WHERE net = $1 AND height = $2 AND NOT is_orphan', [this.net, height + 1]);
    return {
      hash: bytesToHex(row.hash as Buffer), height, prevHash: bytesToHex(row.prev_hash as Buffer),
      merkleRoot: bytesToHex(row.merkle_root as Buffer), version: num(row.version), time: num(row.time), bits: num(row.bits),
      nonce: num(row.nonce), size: num(row.size), strippedSize: num(row.stripped_size), weight: num(row.weight),
      txCount: num(row.tx_count), txids: unpackTxids(row.txids as Buffer), isOrphan,
      nextHash: next ? bytesToHex(next.hash as Buffer) : null,
      fees: big(row.fees), reward: big(row.reward), valueOut: big(row.value_out),
    };
  }

  async blockByHash(hash: string): Promise<BlockRecord | null> {
    return this.block(await one(this.db, 'SELECT * FROM blocks WHERE net = $1 AND hash = $2', [this.net, hexToBytes(hash)]));
  }

  async blockByHeight(height: number): Promise<BlockRecord | null> {
    return this.block(await one(this.db, 'SELECT * FROM blocks WHERE net = $1 AND height = $2 AND NOT is_orphan', [this.net, height]));
  }

  async mainChainHash(height: number): Promise<string | null> {
    const row = await one(this.db, 'SELECT hash FROM blocks WHERE net = $1 AND height = $2 AND NOT is_orphan', [this.net, height]);
    return row ? bytesToHex(row.hash as Buffer) : null;
  }

  async mempoolInfo(): Promise<MempoolInfo> {
    const row = (await one(this.db, `SELECT COUNT(*) AS c, COALESCE(SUM(size), 0) AS b, COALESCE(SUM(vsize), 0) AS v
      FROM mempool_txs WHERE net = $1 AND NOT removed`, [this.net]))!;
    return { count: num(row.c), bytes: num(row.b), vbytes: num(row.v) };
  }

  async mempoolEntries(): Promise<MempoolTxSummary[]> {
    return (await rows(this.db, 'SELECT txid, fee, size, vsize, weight, seen_at FROM mempool_txs WHERE net = $1 AND NOT removed', [this.net]))
      .map((r) => ({
        txid: bytesToHex(r.txid as Buffer), fee: big(r.fee), size: num(r.size), vsize: num(r.vsize), weight: num(r.weight), seenAt: num(r.seen_at),
      }));
  }

  async mempoolTxids(): Promise<string[]> {
    return (await rows(this.db, 'SELECT txid FROM mempool_txs WHERE net = $1 AND NOT removed ORDER BY seen_at, txid', [this.net]))
      .map((r) => bytesToHex(r.txid as Buffer));
  }
}
