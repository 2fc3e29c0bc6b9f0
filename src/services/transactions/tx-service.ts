import { parseTransaction } from '../../chains/parsing.js';
import { NotFoundError } from '../../core/domain/errors.js';
import type { Sats } from '../../core/domain/money.js';
import type { Transaction, ChainTip } from '../../core/domain/chain-types.js';
import type { OutputRecord, TxRecord } from '../../core/store/chain-reads.js';
import { confirmationsAt, isConfirmedBySpec } from '../shared/confirmations.js';
import { doubleSpendVerdict, type DoubleSpendVerdict } from './double-spend-verdict.js';
import { peerOnlyRecord } from './peer-only-record.js';
import type { NetworkContext, NetworkRegistry } from '../shared/network-registry.js';
import { rawTxOf } from './raw-tx-reader.js';
import { inputViews, outputViews, type TxInputView, type TxOutputView } from './tx-views.js';

export type { TxInputView, TxOutputView } from './tx-views.js';

export interface TxView {
  readonly network: NetworkContext;
  readonly record: TxRecord;
  /** The tx's raw bytes (from the store, or from the node with raw_txs = "node"). */
  readonly raw: Uint8Array;
  readonly tx: Transaction;
  readonly confirmations: number;
  /** The confirming main-chain block; null at 0 confirmations (orphaned and mempool txs). */
  readonly blockHash: string | null;
  readonly blockHeight: number | null;
  readonly inputs: readonly TxInputView[];
  readonly outputs: readonly TxOutputView[];
  /** Sum of the outputs. */
  readonly sentValue: Sats;
  /** 0 for a coinbase. */
  readonly fee: Sats;
  /** Confirmed by the spec's rule (coinbase: 240 confirmations). */
  readonly isConfirmed: boolean;
  /** Known only from P2P peers: our node's mempool never held it (its record is shaped by peerOnlyRecord). */
  readonly peerOnly: boolean;
}

const TXID = /^[0-9a-fA-F]{64}$/;

/** Throws NotFoundError (field `txid`) for malformed ids as well: to the caller both are "txid invalid". */
export function checkTxid(txid: string, field = 'txid'): string {
  if (!TXID.test(txid)) throw new NotFoundError(field, 'a valid transaction id (64 hex characters) is required');
  return txid.toLowerCase();
}

/** Another tx spending an outpoint this tx spends: what replaced it, or what it double-spends against. */
export interface TxConflict {
  /** This tx's input. */
  readonly vin: number;
  readonly txid: string;
  /** The other spender is in a main-chain block (else it is in a mempool). */
  readonly confirmed: boolean;
  /** Known only from P2P peers: our node's mempool never held it. */
  readonly peerOnly: boolean;
}

/** How many confirmed views without spenders to remember (each holds the tx's raw bytes and parse). */
const VIEW_CACHE_LIMIT = 10_000;

/** Transactions with their inputs' values and addresses and their outputs' spenders. */
export class TxService {
  /**
   * Views of confirmed txs without spenders, valid while the tip they were made at is the tip: such a view
   * changes only when a block connects or disconnects (confirmations, a reorg), which moves the tip.
   * Spenders and mempool txs change without a new block, so those views are never cached.
   */
  private readonly confirmedViews = new Map<string, { readonly tipHash: string; readonly view: TxView }>();

  constructor(private readonly networks: NetworkRegistry) {}

  /** `spenders: false` leaves every output's spentBy null and saves the store read that finds them. */
  async get(network: string, txid: string, options: { readonly spenders?: boolean } = {}): Promise<TxView> {
    const ctx = this.networks.resolve(network);
    const id = checkTxid(txid);
    const withSpenders = options.spenders !== false;
    const key = `${ctx.id}:${id}`;
    const [record, tip, stored] = await Promise.all([
      withSpenders ? ctx.reader.getTransaction(id) : this.cachedOrRead(ctx, id, key),
      ctx.reader.getTip(),
      withSpenders ? ctx.reader.getOutputs(id) : Promise.resolve(null),
    ]);
    if (record && 'view' in record) {
      if (record.tipHash === tip?.hash) return record.view;
      this.confirmedViews.delete(key);
      return this.get(network, txid, options);
    }
    const view = await this.build(ctx, id, record, tip, stored);
    if (!withSpenders && view.record.status === 'confirmed' && tip) {
      if (this.confirmedViews.size >= VIEW_CACHE_LIMIT) this.confirmedViews.delete(this.confirmedViews.keys().next().value!);
      this.confirmedViews.set(key, { tipHash: tip.hash, view });
    }
    return view;
  }

  /**
   * The txs that spend this tx's outpoints instead of it (none for confirmed and coinbase txs): for a replaced or
   * double-spent tx, what won or competes; from the index (one read per distinct parent) and from P2P peers.
   */
  async conflicts(view: TxView): Promise<TxConflict[]> {
    if (view.record.status === 'confirmed' || view.tx.isCoinbase) return [];
    const parents = [...new Set(view.inputs.map((i) => i.prevTxid))];
    const outputs = new Map(await Promise.all(parents.map(async (p) => [p, await view.network.reader.getOutputs(p)] as const)));
    const found = new Map<string, TxConflict>();
    for (const input of view.inputs) {
      const spentBy = outputs.get(input.prevTxid)?.find((o) => o.vout === input.prevVout)?.spentBy;
      if (spentBy && spentBy.txid !== view.record.txid && !found.has(spentBy.txid)) {
        found.set(spentBy.txid, { vin: input.index, txid: spentBy.txid, confirmed: spentBy.confirmed, peerOnly: false });
      }
    }
    for (const seen of view.network.sightings?.conflicts(view.record.txid) ?? []) {
      if (found.has(seen.txid)) continue;
      const vin = view.inputs.find((i) => i.prevTxid === seen.outpoint.txid && i.prevVout === seen.outpoint.vout)?.index ?? 0;
      const stored = await view.network.reader.getTransaction(seen.txid);
      found.set(seen.txid, { vin, txid: seen.txid, confirmed: stored?.status === 'confirmed', peerOnly: stored === null });
    }
    return [...found.values()];
  }

  private cachedOrRead(ctx: NetworkContext, id: string, key: string): Promise<TxRecord | null | { tipHash: string; view: TxView }> {
    const cached = this.confirmedViews.get(key);
    return cached ? Promise.resolve(cached) : ctx.reader.getTransaction(id);
  }

  /** Whether the tx's coins are spent by another (index and peers) and by which txs: tx displays name them. */
  doubleSpend(view: TxView): Promise<DoubleSpendVerdict> {
    if (view.record.status === 'confirmed' || view.record.status === 'orphaned') return Promise.resolve({ doubleSpent: false, conflictingTxids: [] });
    return doubleSpendVerdict(view.network, view.tx, view.peerOnly ? null : view.record);
  }

  /**
   * What needs no raw bytes (is_tx_confirmed): answers while the node that keeps them (raw_txs = "node") is down.
   * `isConfirmed` follows the spec's rule (a coinbase needs 240 confirmations).
   */
  async status(network: string, txid: string): Promise<{ network: NetworkContext; record: TxRecord; confirmations: number; isConfirmed: boolean }> {
    const ctx = this.networks.resolve(network);
    const id = checkTxid(txid);
    const [stored, tip] = await Promise.all([ctx.reader.getTransaction(id), ctx.reader.getTip()]);
    const peer = stored ? null : ctx.sightings?.peerTx(id);
    const record = stored ?? (peer ? peerOnlyRecord(peer, (ctx.sightings?.conflicts(id).length ?? 0) > 0) : null);
    if (!record) throw new NotFoundError('txid', `transaction ${id} is not known on ${ctx.id}`);
    const confirmations = record.status === 'confirmed' ? confirmationsAt(tip, record.height) : 0;
    return { network: ctx, record, confirmations, isConfirmed: isConfirmedBySpec(record.isCoinbase, confirmations) };
  }

  private async build(ctx: NetworkContext, id: string, stored: TxRecord | null, tip: ChainTip | null, storedOutputs: OutputRecord[] | null): Promise<TxView> {
    // Not in the index: a tx relayed by peers that our node never took (the other side of a double spend, say).
    const peer = stored ? null : ctx.sightings?.peerTx(id);
    const record = stored ?? (peer ? peerOnlyRecord(peer, (ctx.sightings?.conflicts(id).length ?? 0) > 0) : null);
    if (!record) throw new NotFoundError('txid', `transaction ${id} is not known on ${ctx.id}`);
    const raw = await rawTxOf(ctx, record);
    const tx = peer?.tx ?? parseTransaction(raw, { mweb: ctx.params.features.mweb });
    const confirmed = record.status === 'confirmed';
    const confirmations = confirmed ? confirmationsAt(tip, record.height) : 0;
    const inputs = inputViews(ctx.params, tx, record.prevouts);
    const outputs = outputViews(ctx.params, tx, new Map((storedOutputs ?? []).map((o) => [o.vout, o.spentBy])));
    const sentValue = tx.outputs.reduce((sum, o) => sum + o.value, 0n);
    return {
      network: ctx,
      record,
      raw,
      tx,
      confirmations,
      blockHash: confirmations > 0 ? record.blockHash : null,
      blockHeight: confirmations > 0 ? record.height : null,
      inputs,
      outputs,
      sentValue,
      fee: record.fee ?? 0n,
      isConfirmed: isConfirmedBySpec(record.isCoinbase, confirmations),
      peerOnly: !stored,
    };
  }
}
