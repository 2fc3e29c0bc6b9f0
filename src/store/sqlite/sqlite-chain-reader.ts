/** Transaction, output, block and mempool reads for SQLite. */
import type { BlockRecord, MempoolInfo, MempoolTxSummary, OutputRecord, SpendRef, TxRecord } from '../../core/store.js';
import { bytesToHex, hexToBytes, unpackTxids } from '../common/codec.js';
import { assembleTxRecord, txPrevouts, txStatus } from '../common/tx-record.js';
import { scriptsById } from './sqlite-scripts.js';
import { big, num, type Row, type Statements } from './sqlite-statements.js';

export class SqliteChainReader {
  constructor(private readonly st: Statements, private readonly net: number) {}

  transaction(txid: string): TxRecord | null {
    const id = hexToBytes(txid);
    const c = this.st.get(`SELECT t.*, b.time AS block_time FROM txs t LEFT JOIN blocks b ON b.net = t.net AND b.hash = t.block_hash
      WHERE t.net = ? AND t.txid = ?`).get(this.net, id) as Row | undefined;
    // A confirmed tx's mempool row was deleted on confirmation (its first-seen time moved to txs): no need to look.
    const m = c && c.height !== null ? undefined : (this.st.get('SELECT * FROM mempool_txs WHERE net = ? AND txid = ?').get(this.net, id) as Row | undefined);
    const status = txStatus(c, m);
    if (status === null) return null;
    const prevouts = txPrevouts(status, c, m);
    const scripts = scriptsById(this.st, prevouts.flatMap((p) => (p ? [p.scriptId] : [])));
    return assembleTxRecord(txid, status, c, m, prevouts, scripts);
  }

  outputs(txid: string): OutputRecord[] | null {
    const id = hexToBytes(txid);
    const confirmed = this.st.get('SELECT 1 FROM txs WHERE net = ? AND txid = ? AND height IS NOT NULL').get(this.net, id) !== undefined;
    const rows = (confirmed
      ? this.st.get(`SELECT o.vout, o.value, s.script, o.spent_txid, o.spent_vin FROM outputs o JOIN scripts s ON s.id = o.script_id
          WHERE o.net = ? AND o.txid = ? ORDER BY o.vout`)
      : this.st.get(`SELECT o.vout, o.value, s.script, NULL AS spent_txid, NULL AS spent_vin FROM mempool_outputs o
          JOIN scripts s ON s.id = o.script_id WHERE o.net = ? AND o.txid = ? ORDER BY o.vout`)
    ).all(this.net, id) as Row[];
    if (!confirmed && this.st.get('SELECT 1 FROM mempool_txs WHERE net = ? AND txid = ? AND removed = 0').get(this.net, id) === undefined) {
      return null;
    }
    const mempoolSpends = new Map<number, SpendRef>();
    for (const r of this.st.get('SELECT prev_vout, txid, vin FROM mempool_spends WHERE net = ? AND prev_txid = ?').all(this.net, id) as Row[]) {
      if (!mempoolSpends.has(num(r.prev_vout))) mempoolSpends.set(num(r.prev_vout), { txid: bytesToHex(r.txid as Buffer), vin: num(r.vin), confirmed: false });
    }
    return rows.map((r) => ({
      vout: num(r.vout), value: big(r.value), script: r.script as Buffer,
      spentBy: r.spent_txid
        ? { txid: bytesToHex(r.spent_txid as Buffer), vin: num(r.spent_vin), confirmed: true }
        : mempoolSpends.get(num(r.vout)) ?? null,
    }));
  }

  private block(row: Row | undefined): BlockRecord | null {
    if (!row) return null;
    const height = num(row.height);
    const isOrphan = num(row.is_orphan) === 1;
    const next = isOrphan ? undefined : (this.st.get('SELECT hash FROM blocks WHERE net = ? AND height = ? AND is_orphan = 0')
      .get(this.net, height + 1) as Row | undefined);
    const txids = unpackTxids(row.txids as Buffer);
    return {
      hash: bytesToHex(row.hash as Buffer), height, prevHash: bytesToHex(row.prev_hash as Buffer),
      merkleRoot: bytesToHex(row.merkle_root as Buffer), version: num(row.version), time: num(row.time), bits: num(row.bits),
      nonce: num(row.nonce), size: num(row.size), strippedSize: num(row.stripped_size), weight: num(row.weight),
      txCount: num(row.tx_count), txids, isOrphan, nextHash: next ? bytesToHex(next.hash as Buffer) : null,
      fees: BigInt(row.fees as string), reward: BigInt(row.reward as string), valueOut: BigInt(row.value_out as string),
    };
  }

  blockByHash(hash: string): BlockRecord | null {
    return this.block(this.st.get('SELECT * FROM blocks WHERE net = ? AND hash = ?').get(this.net, hexToBytes(hash)) as Row | undefined);
  }

  blockByHeight(height: number): BlockRecord | null {
    return this.block(this.st.get('SELECT * FROM blocks WHERE net = ? AND height = ? AND is_orphan = 0').get(this.net, height) as Row | undefined);
  }

  mainChainHash(height: number): string | null {
    const row = this.st.get('SELECT hash FROM blocks WHERE net = ? AND height = ? AND is_orphan = 0').get(this.net, height) as Row | undefined;
    return row ? bytesToHex(row.hash as Buffer) : null;
  }

  mempoolInfo(): MempoolInfo {
    const row = this.st.get(`SELECT COUNT(*) AS c, COALESCE(SUM(size), 0) AS b, COALESCE(SUM(vsize), 0) AS v
      FROM mempool_txs WHERE net = ? AND removed = 0`).get(this.net) as Row;
    return { count: num(row.c), bytes: num(row.b), vbytes: num(row.v) };
  }

  mempoolEntries(): MempoolTxSummary[] {
    return (this.st.get('SELECT txid, fee, size, vsize, weight, seen_at FROM mempool_txs WHERE net = ? AND removed = 0').all(this.net) as Row[])
      .map((r) => ({
        txid: bytesToHex(r.txid as Buffer), fee: big(r.fee), size: num(r.size), vsize: num(r.vsize), weight: num(r.weight), seenAt: num(r.seen_at),
      }));
  }
}
