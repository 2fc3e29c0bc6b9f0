/**
 * The scripthash methods of the Electrum protocol over one network's index: the script a scripthash names (the
 * scripthash index, then a bounded cache: a script never changes its hash), and its balance, history, mempool txs,
 * unspent outputs and status, each as protocol-methods.rst defines them and as Fulcrum answers them (docs/electrum.md).
 * Unspendable OP_RETURN outputs belong to no scripthash (Fulcrum and ElectrumX do not index them): such a script answers
 * like one never seen. Every read passes the network's sync gate.
 */
import { OP_RETURN } from '../../chains/script/opcodes.js';
import type { NetworkId } from '../../core/domain/network.js';
import type { ScriptHashBalance, ScriptHashReader, ScriptHashUtxo } from '../../core/store/script-hash-reads.js';
import { CappedMap } from '../shared/capped-map.js';
import { HistoryTooLargeError } from './electrum-request-error.js';
import type { SyncGate } from '../shared/sync-gate.js';
import { historyItems, mempoolItems, statusOf, type ElectrumHistoryItem } from './script-status.js';

export type ElectrumBalance = ScriptHashBalance;

export interface ElectrumUtxo {
  readonly tx_hash: string;
  readonly tx_pos: number;
  /** 0 for a mempool output. */
  readonly height: number;
  readonly value: bigint;
}

export interface ElectrumUnspent {
  readonly utxos: ElectrumUtxo[];
  /** A live mempool tx pays or spends the script. */
  readonly pending: boolean;
}

export interface ScriptHashServiceOptions {
  /** Txs (confirmed and mempool together) one history, mempool list or unspent list may hold. */
  readonly maxHistory: number;
  /** Scripthashes whose script is kept in memory (a script ~25-70 bytes, its key 64): ~150 bytes each. */
  readonly cachedScripts?: number;
}

export class ScriptHashService {
  private readonly scripts: CappedMap<string, Uint8Array>;
  private readonly maxHistory: number;

  constructor(
    readonly network: NetworkId,
    private readonly index: ScriptHashReader,
    private readonly gate: SyncGate,
    options: ScriptHashServiceOptions,
  ) {
    this.maxHistory = options.maxHistory;
    this.scripts = new CappedMap(options.cachedScripts ?? 100_000);
  }

  /** Returns (or resolves) when the network answers, throws (or rejects) while it does not (the sync gate): an answer kept from before must pass it too. */
  ready(): void | Promise<void> {
    return this.gate.check(this.network);
  }

  /** The script of a scripthash (64 hex digits, Electrum's reversed order: checked by the caller), null when none is indexed. */
  async script(scripthash: string): Promise<Uint8Array | null> {
    const cached = this.scripts.get(scripthash);
    if (cached) return cached;
    await this.gate.check(this.network);
    const script = await this.index.scriptOf(Buffer.from(scripthash, 'hex').reverse());
    // Not kept when absent: the script may be paid any time.
    if (!script || (script.length > 0 && script[0] === OP_RETURN)) return null;
    this.scripts.set(scripthash, script);
    return script;
  }

  async balance(scripthash: string): Promise<ElectrumBalance> {
    const script = await this.script(scripthash);
    if (!script) return { confirmed: 0n, unconfirmed: 0n, pending: false };
    await this.gate.check(this.network);
    return this.index.balance(script);
  }

  async history(scripthash: string): Promise<ElectrumHistoryItem[]> {
    const script = await this.script(scripthash);
    if (!script) return [];
    await this.gate.check(this.network);
    const history = await this.index.history(script, this.maxHistory);
    if (!history) throw new HistoryTooLargeError(this.maxHistory);
    return historyItems(history);
  }

  async mempool(scripthash: string): Promise<ElectrumHistoryItem[]> {
    const script = await this.script(scripthash);
    if (!script) return [];
    await this.gate.check(this.network);
    const mempool = await this.index.mempool(script, this.maxHistory);
    if (!mempool) throw new HistoryTooLargeError(this.maxHistory);
    return mempoolItems(mempool);
  }

  async status(scripthash: string): Promise<string | null> {
    return statusOf(await this.history(scripthash));
  }

  /**
   * Confirmed outputs in chain order, then mempool outputs as Fulcrum orders them (those of txs without unconfirmed
   * parents first, then by output number, value and txid); outputs a mempool tx spends are left out.
   */
  async unspent(scripthash: string): Promise<ElectrumUnspent> {
    const script = await this.script(scripthash);
    if (!script) return { utxos: [], pending: false };
    await this.gate.check(this.network);
    const found = await this.index.unspent(script, this.maxHistory);
    if (!found) throw new HistoryTooLargeError(this.maxHistory);
    const { outputs, pending } = found;
    const first = outputs.findIndex((o) => o.height === null);
    if (first < 0) return { utxos: outputs.map(utxo), pending };
    const rank = (o: ScriptHashUtxo): number => (o.unconfirmedParent ? 1 : 0);
    const mempool = outputs.slice(first)
      .sort((a, b) => rank(a) - rank(b) || a.vout - b.vout || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0) || (a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : 0));
    return { utxos: [...outputs.slice(0, first), ...mempool].map(utxo), pending };
  }
}

function utxo(o: ScriptHashUtxo): ElectrumUtxo {
  return { tx_hash: o.txid, tx_pos: o.vout, height: o.height ?? 0, value: o.value };
}
