/**
 * What a loaded snapshot is checked against before its transaction commits (docs/snapshots.md, "What is verified"):
 * digests only prove the file is what its writer wrote, and a writer can recompute them after editing rows. So the
 * rows are also checked against the chain itself, block by block in chain order (blocks by first_tx), in pages:
 * - every block's header fields hash to its hash, and the main-chain blocks run from height 0 to the tip, each naming
 *   the one before it (the tip itself was checked against the node: snapshot-node-check.ts), so each is the node's;
 * - the blocks' tx ranges tile the ids 0 … next_tx, and each block's txids have its header's merkle root;
 * - each raw tx hashes to its txid, and a main-chain tx's outputs are exactly its raw tx's (value and script bytes),
 *   its inputs exactly the outputs marked spent by it (spent_by, spent_vin), an orphaned block's txs have neither;
 * - then every script's totals and counts are recomputed from the outputs and the history (snapshot-totals.ts).
 * Not verified: which txs a history row names beyond its script's counts, first-seen times, and, in a snapshot
 * without raw txs ([store] raw_txs = "node"), the outputs and spends (reported as such, never as verified).
 */
import { createHash } from 'node:crypto';
import { getNetworkParams } from '../../../chains/addressing.js';
import { merkleRootOfHashes, parseTransaction, serializeBlockHeader } from '../../../chains/parsing.js';
import type { Transaction } from '../../../core/domain/chain-types.js';
import type { NetworkId } from '../../../core/domain/network.js';
import { chainTables } from '../schema/chain-tables.js';
import { ScriptKeys, storedKeyBits } from '../chain-writes/script-keys.js';
import type { DumpSource, SqlRow } from './dump-engine.js';
import { DumpError } from './dump-format.js';
import { recomputeTotals } from './snapshot-totals.js';
import type { SnapshotHeader } from './snapshot-export.js';

/** Blocks per page: with their txs, raw bytes, outputs and spends in memory at once (a few MB on busy chains). */
const PAGE = 20;
/** Bound of verifiedKeys: far above any real chain's script-key collisions (a few hundred on Bitcoin). */
const MAX_COLLISIONS = 100_000;

export interface SnapshotChecks {
  readonly blocks: number;
  readonly mainChain: number;
  readonly txs: number;
  /** Txs whose raw bytes were hashed and whose outputs and spends were compared with them. */
  readonly rawTxs: number;
  readonly scripts: number;
  /** Main-chain txs without raw bytes in the snapshot: their outputs and spends were taken on trust. */
  readonly withoutRaw: number;
}

const num = (v: unknown): number => Number(v);
const bytes = (v: unknown): Buffer => (Buffer.isBuffer(v) ? v : Buffer.from(v as Uint8Array));
const hex = (b: Buffer): string => b.toString('hex');
const sha256d = (b: Uint8Array): Buffer => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();
/** Display-order hash bytes (as stored) to the internal order hashing uses, and back. */
const flip = (b: Uint8Array): Buffer => Buffer.from(b).reverse();

export async function verifySnapshot(source: DumpSource, header: SnapshotHeader, file: string): Promise<SnapshotChecks> {
  const walk = new ChainWalk(source, header, file);
  await walk.run();
  const scripts = await recomputeTotals(source, header.network, snapshotKeys(header), walk.verifiedKeys, (why) => walk.refuse(why));
  return { ...walk.counts, scripts };
}

class ChainWalk {
  readonly counts = { blocks: 0, mainChain: 0, txs: 0, rawTxs: 0, withoutRaw: 0 };
  /** Script keys off their base key that matched an output's script bytes (collisions: hundreds at mainnet scale). */
  readonly verifiedKeys = new Set<number>();
  private readonly t: ReturnType<typeof chainTables>;
  private readonly mweb: boolean;
  private readonly keys: ScriptKeys;
  private nextId = 0;
  private lastMain: { height: number; hash: Buffer } | null = null;

  constructor(
    private readonly source: DumpSource,
    private readonly header: SnapshotHeader,
    private readonly file: string,
  ) {
    this.t = chainTables(header.network);
    this.mweb = getNetworkParams(header.network as NetworkId).features.mweb;
    this.keys = snapshotKeys(header);
  }

  refuse(why: string): DumpError {
    return new DumpError(`${this.file} does not match the chain it claims to hold (${why}); nothing was loaded. ` +
      'A snapshot whose rows were changed is refused even when its digests were recomputed');
  }

  async run(): Promise<void> {
    const t = this.t;
    for (let after = -1; ;) {
      const blocks = await this.source.all(
        `SELECT hash, height, is_orphan, prev_hash, merkle_root, version, time, bits, nonce, tx_count, first_tx FROM ${t.blocks} ` +
        `WHERE first_tx > ${after} ORDER BY first_tx LIMIT ${PAGE}`);
      if (blocks.length === 0) break;
      const from = num(blocks[0]!.first_tx);
      const last = blocks[blocks.length - 1]!;
      const to = num(last.first_tx) + num(last.tx_count);
      const range = `>= ${from} AND id < ${to}`;
      const [txs, raws, outputs, spends] = await Promise.all([
        this.source.all(`SELECT id, txid FROM ${t.txs} WHERE id ${range} ORDER BY id`),
        this.source.all(`SELECT id, raw FROM ${t.txRaws} WHERE id ${range} ORDER BY id`),
        this.source.all(`SELECT id, vout, value, script FROM ${t.outputs} WHERE id ${range} ORDER BY id, vout`),
        this.source.all(`SELECT o.spent_by, o.spent_vin, o.vout, x.txid FROM ${t.outputs} o JOIN ${t.txs} x ON x.id = o.id ` +
          `WHERE o.spent_by >= ${from} AND o.spent_by < ${to}`),
      ]);
      const page = new TxPage(txs, raws, outputs, spends);
      for (const block of blocks) await this.block(block, page);
      await this.scriptsOf(page);
      after = num(last.first_tx);
    }
    const tipHeight = Number(this.header.tip.height);
    if (this.nextId !== Number(this.header.tip.next_tx)) throw this.refuse(`the blocks' txs end at id ${this.nextId}, the header's next_tx is ${this.header.tip.next_tx}`);
    if (!this.lastMain || this.lastMain.height !== tipHeight || hex(this.lastMain.hash) !== this.header.tip.hash) {
      throw this.refuse(`the main chain ends at ${this.lastMain ? `height ${this.lastMain.height}` : 'no block'}, not at the tip ${this.header.tip.hash}`);
    }
  }

  private async block(row: SqlRow, page: TxPage): Promise<void> {
    const hash = bytes(row.hash);
    const height = num(row.height);
    const where = `block ${height} ${hex(hash)}`;
    const computed = sha256d(serializeBlockHeader({
      version: num(row.version), prevHash: hex(bytes(row.prev_hash)), merkleRoot: hex(bytes(row.merkle_root)),
      time: num(row.time), bits: num(row.bits), nonce: num(row.nonce),
    }));
    if (!flip(computed).equals(hash)) throw this.refuse(`${where}: its header does not hash to it`);
    const orphan = row.is_orphan === true || num(row.is_orphan) === 1;
    if (!orphan) {
      const expected = this.lastMain ? this.lastMain.height + 1 : 0;
      if (height !== expected) throw this.refuse(`${where}: main-chain block where height ${expected} belongs`);
      if (this.lastMain && !bytes(row.prev_hash).equals(this.lastMain.hash)) throw this.refuse(`${where}: does not follow the main-chain block before it`);
      this.lastMain = { height, hash };
      this.counts.mainChain++;
    }
    const first = num(row.first_tx);
    const count = num(row.tx_count);
    if (first !== this.nextId || count < 1) throw this.refuse(`${where}: its txs start at id ${first}, expected ${this.nextId}`);
    this.nextId = first + count;
    const txids: Buffer[] = [];
    for (let id = first; id < first + count; id++) {
      const txid = page.txid(id);
      if (!txid) throw this.refuse(`${where}: tx ${id} is missing`);
      txids.push(flip(txid));
      this.tx(id, txid, orphan, page, where);
    }
    if (!flip(merkleRootOfHashes(txids)).equals(bytes(row.merkle_root))) throw this.refuse(`${where}: its txs do not have its merkle root`);
    this.counts.blocks++;
    this.counts.txs += count;
  }

  /** A tx against its raw bytes: txid, outputs (values here, scripts by key or queued for a byte comparison), spends. */
  private tx(id: number, txid: Buffer, orphan: boolean, page: TxPage, where: string): void {
    const outputs = page.outputsOf(id);
    const spends = page.spendsBy(id);
    if (orphan) {
      if (outputs.length > 0 || spends.size > 0) throw this.refuse(`${where}: tx ${hex(txid)} of an orphaned block has outputs or spends`);
      return;
    }
    const raw = page.raw(id);
    if (!raw) {
      this.counts.withoutRaw++;
      return;
    }
    let tx: Transaction;
    try {
      tx = parseTransaction(raw, { mweb: this.mweb });
    } catch {
      throw this.refuse(`${where}: the raw bytes of tx ${id} do not parse`);
    }
    if (tx.txid !== hex(txid)) throw this.refuse(`${where}: the raw bytes of tx ${id} hash to ${tx.txid}, not to its txid ${hex(txid)}`);
    if (outputs.length !== tx.outputs.length) throw this.refuse(`tx ${tx.txid}: ${outputs.length} outputs stored, ${tx.outputs.length} in its raw bytes`);
    tx.outputs.forEach((o, vout) => {
      const stored = outputs[vout]!;
      if (num(stored.vout) !== vout || BigInt(stored.value as bigint) !== o.value) throw this.refuse(`output ${tx.txid}:${vout}: its value is not its raw tx's`);
      const key = num(stored.script);
      if (key === this.keys.base(o.script)) return;
      const other = page.collided.get(key);
      if (other && !other.script.equals(o.script)) throw this.refuse(`outputs ${other.output} and ${tx.txid}:${vout}: one script key for two scripts`);
      page.collided.set(key, { script: Buffer.from(o.script), output: `${tx.txid}:${vout}` });
    });
    const inputs = tx.isCoinbase ? [] : tx.inputs;
    if (spends.size !== inputs.length) throw this.refuse(`tx ${tx.txid}: ${spends.size} outputs are marked spent by it, it has ${inputs.length} inputs`);
    inputs.forEach((input, vin) => {
      const spent = spends.get(vin);
      if (!spent || spent.txid !== input.prevTxid || spent.vout !== input.prevVout) throw this.refuse(`input ${tx.txid}:${vin}: not the output its raw tx spends`);
    });
    this.counts.rawTxs++;
  }

  /**
   * Outputs whose script key is not their script's base key took a later key of its probe sequence (a collision,
   * docs/schema.md) or were pointed at another script: their script rows must hold exactly their bytes.
   */
  private async scriptsOf(page: TxPage): Promise<void> {
    if (page.collided.size === 0) return;
    const rows = await this.source.all(`SELECT key, script FROM ${this.t.scripts} WHERE key IN (${[...page.collided.keys()].join(', ')})`);
    const stored = new Map(rows.map((r) => [num(r.key), bytes(r.script)]));
    for (const [key, { script, output }] of page.collided) {
      if (!stored.get(key)?.equals(script)) throw this.refuse(`output ${output}: its script key names other script bytes`);
      this.verifiedKeys.add(key);
    }
    // Collisions need about 2^26 scripts each under a secret salt; a file claiming many more was made up.
    if (this.verifiedKeys.size > MAX_COLLISIONS) throw this.refuse(`more than ${MAX_COLLISIONS} scripts off their keys`);
  }
}

/** One page's txs, raw bytes, outputs and spends, by tx id. */
class TxPage {
  private readonly txids = new Map<number, Buffer>();
  private readonly raws = new Map<number, Buffer>();
  private readonly outputs = new Map<number, SqlRow[]>();
  private readonly spends = new Map<number, Map<number, { txid: string; vout: number }>>();
  /** Script keys to compare with their script rows' bytes (see ChainWalk.scriptsOf). */
  readonly collided = new Map<number, { script: Buffer; output: string }>();

  constructor(txs: SqlRow[], raws: SqlRow[], outputs: SqlRow[], spends: SqlRow[]) {
    for (const r of txs) this.txids.set(num(r.id), bytes(r.txid));
    for (const r of raws) this.raws.set(num(r.id), bytes(r.raw));
    for (const r of outputs) {
      const id = num(r.id);
      const list = this.outputs.get(id);
      if (list) list.push(r);
      else this.outputs.set(id, [r]);
    }
    for (const r of spends) {
      const by = num(r.spent_by);
      let map = this.spends.get(by);
      if (!map) this.spends.set(by, (map = new Map()));
      map.set(num(r.spent_vin), { txid: hex(bytes(r.txid)), vout: num(r.vout) });
    }
  }

  txid(id: number): Buffer | undefined {
    return this.txids.get(id);
  }

  raw(id: number): Buffer | undefined {
    return this.raws.get(id);
  }

  outputsOf(id: number): SqlRow[] {
    return this.outputs.get(id) ?? [];
  }

  spendsBy(id: number): Map<number, { txid: string; vout: number }> {
    return this.spends.get(id) ?? new Map();
  }
}

/** The script keys every key in the snapshot was made with: its salt and width (53 when the header predates widths). */
function snapshotKeys(header: SnapshotHeader): ScriptKeys {
  return new ScriptKeys(Buffer.from(header.script_key_salt, 'hex'), storedKeyBits(header.script_key_bits));
}
