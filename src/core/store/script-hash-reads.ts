import type { Sats } from '../domain/money.js';

/**
 * Reads by scripthash (sha256 of an output script, the key Electrum clients send) and the raw chain data the Electrum
 * protocol serves (docs/electrum.md). The index from hash to script row is built by the initial load, kept by every
 * write, and built in the background on a store made before it existed (docs/schema.md, "Scripthash index").
 */

/** Whether the scripthash index can answer: complete, or still being built over the scripts stored before it. */
export interface ScriptHashIndexState {
  readonly ready: boolean;
  /** While building: how far the build has come, 0 to 1 (by script key); 1 when ready. */
  readonly progress: number;
}

/** A confirmed tx of a script's history, in chain order. */
export interface ScriptHashConfirmedTx {
  readonly txid: string;
  readonly height: number;
}

/** A live mempool tx paying or spending from the script. */
export interface ScriptHashMempoolTx {
  readonly txid: string;
  readonly fee: Sats;
  /** It spends an output of another live mempool tx (Electrum's height -1; 0 otherwise). */
  readonly unconfirmedParent: boolean;
}

/** A script's whole history: what an Electrum status is made of (protocol-basics.rst, "Status"). */
export interface ScriptHashHistory {
  /** Confirmed txs by (height, position in block). */
  readonly confirmed: readonly ScriptHashConfirmedTx[];
  /** Live mempool txs, in no particular order. */
  readonly mempool: readonly ScriptHashMempoolTx[];
}

/** A script's unspent outputs, as listunspent needs them. */
export interface ScriptHashUnspent {
  readonly outputs: ScriptHashUtxo[];
  /** A live mempool tx pays or spends the script (spent outputs are not listed, so the list alone cannot tell). */
  readonly pending: boolean;
}

/** An unspent output of a script, as listunspent needs it. */
export interface ScriptHashUtxo {
  readonly txid: string;
  readonly vout: number;
  readonly value: Sats;
  /** null for a mempool output. */
  readonly height: number | null;
  /** A mempool output whose tx spends another mempool tx's output. */
  readonly unconfirmedParent: boolean;
}

/** A script's balance as Electrum's get_balance answers it. */
export interface ScriptHashBalance {
  /** Confirmed: received less sent. */
  readonly confirmed: Sats;
  /** The live mempool's change to it (received less sent by mempool txs); may be negative. */
  readonly unconfirmed: Sats;
  /** A live mempool tx pays or spends the script (whatever the sums come to). */
  readonly pending: boolean;
}

export interface ScriptHashReader {
  indexState(): Promise<ScriptHashIndexState>;
  /**
   * The script whose sha256 is `sha256` (32 bytes, natural order, as hashed: Electrum's hex is its reverse), null when
   * the index holds none. While the index is being built, rejects with ScriptHashIndexBuildingError.
   */
  scriptOf(sha256: Uint8Array): Promise<Uint8Array | null>;
  /**
   * The history of a script, or null when it has more than `max` txs (confirmed and mempool together): the caller's
   * bound on what one answer may hold, checked before the rows are read whole.
   */
  history(script: Uint8Array, max: number): Promise<ScriptHashHistory | null>;
  /**
   * The script's unspent outputs, none a live mempool tx spends: confirmed by (height, position, output), then mempool
   * outputs in no particular order; null when more than `max`.
   */
  unspent(script: Uint8Array, max: number): Promise<ScriptHashUnspent | null>;
  /** The script's balance (zeros for a script the index has never seen). */
  balance(script: Uint8Array): Promise<ScriptHashBalance>;
  /** The script's live mempool txs alone (history's second half), or null when more than `max`. */
  mempool(script: Uint8Array, max: number): Promise<ScriptHashMempoolTx[] | null>;
  /** The main chain's 80-byte headers from `fromHeight`, at most `count`, fewer at the tip. */
  headers(fromHeight: number, count: number): Promise<Uint8Array[]>;
  /** The main chain's block hashes (32 bytes, internal byte order: as hashed, the reverse of display hex) of a height range. */
  blockHashes(fromHeight: number, toHeight: number): Promise<Uint8Array[]>;
}

/** The writer's side: the background build of an existing store's index, a bounded step at a time. */
export interface ScriptHashIndexBuilder {
  /**
   * Indexes up to `limit` more of the scripts stored before the index existed (one transaction, resumable: a killed
   * build goes on from the last step committed) and answers the state after it. A no-op once ready.
   * PostgreSQL builds its index concurrently in one step, whatever `limit`.
   */
  buildScriptHashIndex(limit: number): Promise<ScriptHashIndexState>;
}
