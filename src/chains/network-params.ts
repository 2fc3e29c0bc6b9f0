import type { ChainKind, CoinId, NetworkId } from '../core/index.js';
import type { ExtendedKeyVersion } from './wallet/extended-key-versions.js';

/** Which block/transaction format overrides a chain needs. */
export interface ChainFeatures {
  readonly segwit: boolean;
  /** Litecoin MimbleWimble extension blocks (HogEx, flag-0x08 txs, extension after the tx list). */
  readonly mweb: boolean;
  /** Merge-mined headers (Dogecoin): AuxPoW payload after the 80-byte header when version bit 0x100 is set. */
  readonly auxpow: boolean;
}

/**
 * ZMQ topics Outpoint can follow: `sequence` (Bitcoin Core / Litecoin Core 0.21+: ordered block and mempool
 * events, removals included) or `hashblock` + `hashtx` (all Dogecoin Core 1.14 has; removals found by polling).
 */
export type ZmqTopic = 'sequence' | 'hashblock' | 'hashtx';
export const ZMQ_TOPICS: readonly ZmqTopic[] = ['sequence', 'hashblock', 'hashtx'];

/** Everything that makes one coin's network differ from another: data, not code paths. The coin's own facts are its CoinParams (coin-params.ts). */
export interface NetworkParams {
  /** The API acronym (regtest uses its coin's test acronym). */
  readonly id: NetworkId;
  readonly chain: ChainKind;
  readonly coin: CoinId;
  /** Human name, e.g. "Litecoin Testnet". */
  readonly name: string;
  /** Base58 version byte for P2PKH. */
  readonly pubkeyHashVersion: number;
  /** Base58 version bytes accepted for P2SH; the first is the one used to encode. */
  readonly scriptHashVersions: readonly number[];
  /** Base58 version byte of WIF private keys (used by test tooling only). */
  readonly wifVersion: number;
  /** Segwit human-readable part, null where the chain has no segwit. */
  readonly bech32Hrp: string | null;
  /** Litecoin MWEB stealth address hrp, null elsewhere. */
  readonly mwebHrp: string | null;
  readonly genesisHash: string;
  /** Target seconds between blocks. */
  readonly targetSpacing: number;
  readonly coinbaseMaturity: number;
  readonly defaultRpcPort: number;
  readonly defaultP2pPort: number;
  /** P2P message start bytes (hex, in wire order): every message of this chain's protocol begins with them. */
  readonly p2pMagic: string;
  /** The protocol version our P2P listener announces in `version` (the coin's current node's PROTOCOL_VERSION). */
  readonly p2pProtocolVersion: number;
  /**
   * Seconds in which an ordinary transaction normally reaches most of the network and is announced to a listener
   * connected to it (relay hops plus the nodes' inbound inventory trickle, 5 s on average in Core-derived nodes):
   * the confidence model's time scale (docs/confidence.md).
   */
  readonly txPropagationSeconds: number;
  /** Consensus block weight limit (for mempool block projection). */
  readonly maxBlockWeight: number;
  readonly features: ChainFeatures;
  /** The topics this coin's node publishes that `zmq_url` follows unless `zmq_topics` says otherwise. */
  readonly zmqTopics: readonly ZmqTopic[];
  /** Extended key versions (SLIP-132) this network's keys are written with; the first is the node's own. */
  readonly extendedKeys: readonly ExtendedKeyVersion[];
  /**
   * The lowest node version (`getnetworkinfo` version) whose `estimatesmartfee` answers are used; older nodes'
   * estimates are ignored (Dogecoin Core before 1.14.7: unreliable). 0: every version.
   */
  readonly smartFeeFromVersion: number;
}
