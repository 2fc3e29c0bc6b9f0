import type { AddressHistoryEntry, AddressTotals, UnspentOutput } from './chain-reads.js';

/**
 * Reads over many scripts at once: a wallet's addresses (docs/wallets.md). Each is a fixed number of statements for
 * the whole set, never one per script, so a 1,000-address wallet costs a few queries. Scripts the index has never
 * seen are simply absent from the answers (zero totals).
 */

export interface ScriptSetPage {
  readonly limit: number;
  readonly offset: number;
}

export interface ScriptSetTxCount {
  /** Distinct confirmed txs paying or spending from any of the scripts. */
  readonly confirmed: number;
  /** Distinct live mempool txs doing so. */
  readonly mempool: number;
}

/**
 * What a set of scripts (a wallet) got from outside it and paid outside it, over its confirmed txs: each tx's net
 * (what it paid to the set minus what it spent from it) counts as received when positive and as sent when negative,
 * so change and transfers inside the set cancel, and a spend counts what left the set plus its fee.
 * received − sent is the set's confirmed balance.
 */
export interface ScriptSetFlows {
  readonly received: bigint;
  readonly sent: bigint;
}

export interface ScriptSetSummary {
  readonly totals: AddressTotals[];
  readonly txCount: ScriptSetTxCount;
}

export interface ScriptSetReader {
  /** Each script's totals, in the order given (as getAddressTotals would answer each one). */
  getScriptTotals(scripts: readonly Uint8Array[]): Promise<AddressTotals[]>;
  getScriptSetTxCount(scripts: readonly Uint8Array[]): Promise<ScriptSetTxCount>;
  /** Both in one read: the scripts resolved and the mempool read once (a wallet's scan that ends in one read). */
  getScriptSetSummary(scripts: readonly Uint8Array[]): Promise<ScriptSetSummary>;
  /** The set's confirmed flows from and to outside it (kept per set while the tip stays: they read every tx). */
  getScriptSetFlows(scripts: readonly Uint8Array[]): Promise<ScriptSetFlows>;
  /**
   * The txs of the set newest first: live mempool txs first (newest seen first), then confirmed ones in reverse chain
   * order. A tx touching several scripts of the set is one entry whose funding and spending list every output paying
   * the set and every input spending from it, so `received - sent` is the set's net.
   */
  getScriptSetHistory(scripts: readonly Uint8Array[], page: ScriptSetPage): Promise<AddressHistoryEntry[]>;
  /**
   * Unspent outputs paying any of the scripts, oldest first: confirmed by (height, position, vout), then mempool
   * outputs by first-seen time; outputs a live mempool tx spends are left out. Each carries the script it pays.
   */
  getScriptSetUnspent(scripts: readonly Uint8Array[], page: ScriptSetPage): Promise<UnspentOutput[]>;
}
