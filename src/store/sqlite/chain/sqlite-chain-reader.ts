/** Transaction, output, block and mempool reads for SQLite (compact chain layout). */
import type { BlockRecord, MempoolInfo, MempoolTxSummary, OutputRecord, SpendRef, TxRecord } from '../../../core/store/chain-reads.js';
import type { PrevoutInfo } from '../../../core/domain/chain-types.js';
import { bytesToHex, hexToBytes, unpackPrevouts } from '../../common/schema/codec.js';
import { chainTxRecord, mempoolTxRecord, storedBlockRecord, storedChainTxRow, type BlockOfTx } from '../../common/chain-reads/tx-record.js';
import { txIdsOf } from './sqlite-chain-writer.js';
import type { SqliteNet } from './sqlite-net.js';
import { scriptsByKey } from './sqlite-scripts.js';
import { big, num, type Row } from '../connection/sqlite-statements.js';

export class SqliteChainReader {
  constructor(private readonly n: SqliteNet) {}

  /** The block holding tx `id` (ranges never overlap: ids are never reused across blocks). */
  blockOfTx(id: number): BlockOfTx | null {
    const row = this.n.st.get(`SELECT hash, height, time, is_orphan, first_tx, tx_count FROM ${this.n.t.blocks}
      WHERE first_tx <= ? ORDER BY first_tx DESC LIMIT 1`).get(id) as Row | undefined;
    if (!row || id >= num(row.first_tx) + num(row.tx_count)) return null;
    return { hash: bytesToHex(row.hash as Buffer), height: num(row.height), time: num(row.time), isOrphan: num(row.is_orphan) === 1, firstTx: num(row.first_tx) };
  }

  /** The stored copy to answer with: in a main-chain block if any, else the newest orphaned one. */
  private chainRow(txid: Buffer): { row: Row; block: BlockOfTx } | null {
    let orphan: { row: Row; block: BlockOfTx } | null = null;
    for (const id of txIdsOf(this.n, txid)) {
      const block = this.blockOfTx(id);
      if (!block) continue;
      const row = this.n.st.get(`SELECT t.*, r.raw FROM ${this.n.t.txs} t LEFT JOIN ${this.n.t.txRaws} r ON r.id = t.id WHERE t.id = ?`).get(id) as Row;
      if (!block.isOrphan) return { row, block };
      orphan ??= { row, block };
    }
    return orphan;
  }

  /** What a main-chain tx's inputs spent, in input order (its spent outputs name it). */
  private spentBy(id: number): PrevoutInfo[] {
    const rows = this.n.st.get(`SELECT o.vout, o.value, s.script, t.txid FROM ${this.n.t.outputs} o
      JOIN ${this.n.t.scripts} s ON s.key = o.script JOIN ${this.n.t.txs} t ON t.id = o.id
      WHERE o.spent_by = ? ORDER BY o.spent_vin`).all(id) as Row[];
    return rows.map((r) => ({ txid: bytesToHex(r.txid as Buffer), vout: num(r.vout), value: big(r.value), script: r.script as Buffer }));
  }

  private outputSum(id: number): bigint {
    let sum = 0n;
    for (const r of this.n.st.get(`SELECT value FROM ${this.n.t.outputs} WHERE id = ?`).all(id) as Row[]) sum += big(r.value);
    return sum;
  }

  transaction(txid: string): TxRecord | null {
    const key = hexToBytes(txid);
    const chain = this.chainRow(key);
    if (chain && !chain.block.isOrphan) {
      const id = num(chain.row.id);
      const coinbase = id === chain.block.firstTx;
      const prevouts = coinbase ? [null] : this.spentBy(id);
      const fee = coinbase ? null : prevouts.reduce((s, p) => s + p!.value, 0n) - this.outputSum(id);
      return chainTxRecord(txid, storedChainTxRow(chain.row), chain.block, prevouts, fee);
    }
    // A confirmed tx's mempool row was deleted on confirmation (its first-seen time moved to txs).
    const m = this.n.st.get(`SELECT * FROM ${this.n.t.mempoolTxs} WHERE txid = ?`).get(key) as Row | undefined;
    if (m) {
      const stored = unpackPrevouts(m.prevouts as Buffer);
      const scripts = scriptsByKey(this.n, stored.flatMap((p) => (p ? [p.scriptId] : [])));
      return mempoolTxRecord(txid, m, stored, scripts);
    }
    if (!chain) return null;
    // Orphaned: its inputs are unspent again; what they spent was kept on the row when its block was disconnected.
    const stored = unpackPrevouts(chain.row.orphan_prevouts as Buffer);
    const scripts = scriptsByKey(this.n, stored.flatMap((p) => (p ? [p.scriptId] : [])));
    const prevouts = stored.map((p) => (p ? { txid: p.txid, vout: p.vout, value: p.value, script: scripts.get(p.scriptId)! } : null));
    const fee = chain.row.orphan_fee === null ? null : big(chain.row.orphan_fee);
    return chainTxRecord(txid, storedChainTxRow(chain.row), chain.block, prevouts, fee);
  }

  outputs(txid: string): OutputRecord[] | null {
    const key = hexToBytes(txid);
    const chain = this.chainRow(key);
    const confirmed = chain !== null && !chain.block.isOrphan;
    if (!confirmed && this.n.st.get(`SELECT 1 FROM ${this.n.t.mempoolTxs} WHERE txid = ? AND removed = 0`).get(key) === undefined) return null;
    const rows = (confirmed
      ? this.n.st.get(`SELECT o.vout, o.value, s.script, sp.txid AS spent_txid, o.spent_vin FROM ${this.n.t.outputs} o
          JOIN ${this.n.t.scripts} s ON s.key = o.script LEFT JOIN ${this.n.t.txs} sp ON sp.id = o.spent_by WHERE o.id = ? ORDER BY o.vout`)
        .all(num(chain.row.id))
      : this.n.st.get(`SELECT o.vout, o.value, s.script, NULL AS spent_txid, NULL AS spent_vin FROM ${this.n.t.mempoolOutputs} o
          JOIN ${this.n.t.scripts} s ON s.key = o.script WHERE o.txid = ? ORDER BY o.vout`).all(key)) as Row[];
    const mempoolSpends = new Map<number, SpendRef>();
    for (const r of this.n.st.get(`SELECT prev_vout, txid, vin FROM ${this.n.t.mempoolSpends} WHERE prev_txid = ?`).all(key) as Row[]) {
      if (!mempoolSpends.has(num(r.prev_vout))) mempoolSpends.set(num(r.prev_vout), { txid: bytesToHex(r.txid as Buffer), vin: num(r.vin), confirmed: false });
    }
    return rows.map((r) => ({
      vout: num(r.vout), value: big(r.value), script: r.script as Buffer,
      spentBy: r.spent_txid ? { txid: bytesToHex(r.spent_txid as Buffer), vin: num(r.spent_vin), confirmed: true } : mempoolSpends.get(num(r.vout)) ?? null,
    }));
  }

  private block(row: Row | undefined): BlockRecord | null {
    if (!row) return null;
    const height = num(row.height);
    const isOrphan = num(row.is_orphan) === 1;
    const next = isOrphan ? undefined : (this.n.st.get(`SELECT hash FROM ${this.n.t.blocks} WHERE height = ? AND is_orphan = 0`).get(height + 1) as Row | undefined);
    const first = num(row.first_tx);
    const txids = (this.n.st.get(`SELECT txid FROM ${this.n.t.txs} WHERE id BETWEEN ? AND ? ORDER BY id`).all(first, first + num(row.tx_count) - 1) as Row[])
      .map((r) => bytesToHex(r.txid as Buffer));
    return storedBlockRecord(row, txids, next ? bytesToHex(next.hash as Buffer) : null);
  }

  blockByHash(hash: string): BlockRecord | null {
    return this.block(this.n.st.get(`SELECT * FROM ${this.n.t.blocks} WHERE hash = ?`).get(hexToBytes(hash)) as Row | undefined);
  }

  blockByHeight(height: number): BlockRecord | null {
    return this.block(this.n.st.get(`SELECT * FROM ${this.n.t.blocks} WHERE height = ? AND is_orphan = 0`).get(height) as Row | undefined);
  }

  mainChainHash(height: number): string | null {
    const row = this.n.st.get(`SELECT hash FROM ${this.n.t.blocks} WHERE height = ? AND is_orphan = 0`).get(height) as Row | undefined;
    return row ? bytesToHex(row.hash as Buffer) : null;
  }

  mempoolInfo(): MempoolInfo {
    const row = this.n.st.get(`SELECT COUNT(*) AS c, COALESCE(SUM(size), 0) AS b, COALESCE(SUM((weight + 3) / 4), 0) AS v
      FROM ${this.n.t.mempoolTxs} WHERE removed = 0`).get() as Row;
    return { count: num(row.c), bytes: num(row.b), vbytes: num(row.v) };
  }

  mempoolEntries(): MempoolTxSummary[] {
    return (this.n.st.get(`SELECT txid, fee, size, weight, seen_at FROM ${this.n.t.mempoolTxs} WHERE removed = 0`).all() as Row[])
      .map((r) => ({
        txid: bytesToHex(r.txid as Buffer), fee: big(r.fee), size: num(r.size), vsize: Math.ceil(num(r.weight) / 4), weight: num(r.weight), seenAt: num(r.seen_at),
      }));
  }

  mempoolTxids(): string[] {
    return (this.n.st.get(`SELECT txid FROM ${this.n.t.mempoolTxs} WHERE removed = 0 ORDER BY seen_at, txid`).all() as Row[])
      .map((r) => bytesToHex(r.txid as Buffer));
  }
}
