import type { Sats } from './money.js';

/**
 * Parsed chain data. Byte fields are views over the buffer that was parsed (zero-copy):
 * keep the buffer alive or copy the view before storing it beyond the parse.
 * Hashes are hex strings in display (RPC) byte order.
 */
export interface TxInput {
  /** Display-order txid of the spent output; 64 zeros for a coinbase input. */
  readonly prevTxid: string;
  /** 0xffffffff for a coinbase input. */
  readonly prevVout: number;
  readonly scriptSig: Uint8Array;
  readonly sequence: number;
  /** Witness stack items; empty when the input has none. */
  readonly witness: readonly Uint8Array[];
}

export interface TxOutput {
  readonly value: Sats;
  readonly script: Uint8Array;
}

export interface Transaction {
  readonly txid: string;
  readonly wtxid: string;
  readonly version: number;
  readonly locktime: number;
  readonly inputs: readonly TxInput[];
  readonly outputs: readonly TxOutput[];
  /** Serialized length in bytes, as the transaction appears on the wire / in the block. */
  readonly size: number;
  /** Consensus weight (Litecoin: computed on the NO_MWEB serialization, as Litecoin Core does). */
  readonly weight: number;
  /** ceil(weight / 4). */
  readonly vsize: number;
  readonly hasWitness: boolean;
  readonly isCoinbase: boolean;
  /** Litecoin MWEB integrating transaction (serialization flag 0x08, last tx of an MWEB block). */
  readonly isHogEx: boolean;
  /** The transaction carries an MWEB body (mempool form, flag 0x08/0x09 with mw::Transaction). */
  readonly hasMwebBody: boolean;
  /** The serialized bytes as parsed (view). */
  readonly raw: Uint8Array;
}

export interface BlockHeader {
  readonly hash: string;
  readonly version: number;
  readonly prevHash: string;
  readonly merkleRoot: string;
  readonly time: number;
  readonly bits: number;
  readonly nonce: number;
  /** The 80 header bytes (view). */
  readonly raw: Uint8Array;
}

/** Dogecoin (and other merge-mined chains') proof of work done on a parent chain's block. */
export interface AuxPow {
  readonly parentCoinbase: Transaction;
  readonly parentBlockHash: string;
  readonly coinbaseBranch: readonly string[];
  readonly coinbaseIndex: number;
  readonly chainBranch: readonly string[];
  readonly chainIndex: number;
  readonly parentHeader: BlockHeader;
}

/** Litecoin MWEB extension block: the mw::Header fields; the MW body stays opaque (confidential). */
export interface MwebBlock {
  readonly height: number;
  readonly outputRoot: string;
  readonly kernelRoot: string;
  readonly leafsetRoot: string;
  readonly kernelOffset: string;
  readonly stealthOffset: string;
  readonly outputMmrSize: bigint;
  readonly kernelMmrSize: bigint;
  /** BLAKE3 of the serialized mw::Header: equals the HogEx output-0 program. */
  readonly headerHash: string;
  readonly numInputs: number;
  readonly numOutputs: number;
  readonly numKernels: number;
  /** The whole extension bytes after the presence byte (view). */
  readonly raw: Uint8Array;
}

export interface Block {
  readonly header: BlockHeader;
  readonly auxpow: AuxPow | null;
  readonly txs: readonly Transaction[];
  readonly mweb: MwebBlock | null;
  /** Full serialized length (everything parsed, including AuxPoW and the MWEB extension). */
  readonly size: number;
  /** Size without witness data (Litecoin: also without the MWEB extension and HogEx flag bytes). */
  readonly strippedSize: number;
  readonly weight: number;
  readonly raw: Uint8Array;
}

export interface ChainTip {
  readonly height: number;
  readonly hash: string;
}

export interface Outpoint {
  readonly txid: string;
  readonly vout: number;
}

/** What one transaction did to one script: the unit of balance_update events. */
export interface ScriptDelta {
  readonly script: Uint8Array;
  readonly txid: string;
  readonly received: Sats;
  readonly sent: Sats;
}

export interface PrevoutInfo {
  readonly txid: string;
  readonly vout: number;
  readonly value: Sats;
  readonly script: Uint8Array;
}
