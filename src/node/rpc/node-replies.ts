/**
 * Shapes of the node's JSON replies, turned into camelCase objects with bigint amounts.
 * Amount fields arrive as decimal text (RpcClient `exactDecimals`), so no float ever holds coins.
 * Dogecoin Core 1.14 (Bitcoin Core 0.14 era, docs/dogecoin-1.14.md) lacks fields newer nodes have:
 * `fees {…}`, `vsize`, `spentby`, `bip125-replaceable`, `nTx`, `minrelaytxfee`, `loaded`, `total_fee`, and on
 * builds before 1.14.7 `initialblockdownload`. A field some node does not send is null here ("unknown"), never a
 * guess; a field every supported node sends is required, and its absence throws (a reply we cannot read).
 */
import { parseCoins, type Sats } from '../../core/domain/money.js';
import type { MempoolPackage } from '../../core/sources/mempool-package-source.js';

export interface BlockchainInfo {
  readonly chain: string;
  readonly blocks: number;
  readonly headers: number;
  readonly bestBlockHash: string;
  /** A float on every node (not an amount). */
  readonly difficulty: number;
  readonly medianTime: number;
  readonly verificationProgress: number;
  /** null when the node does not say (Dogecoin Core before 1.14.7): unknown, not "synced". */
  readonly initialBlockDownload: boolean | null;
  readonly chainwork: string;
  readonly pruned: boolean;
}

export interface BlockHeaderInfo {
  readonly hash: string;
  /** -1 when the block is not on the best chain. */
  readonly confirmations: number;
  readonly height: number;
  readonly version: number;
  readonly merkleRoot: string;
  readonly time: number;
  readonly medianTime: number;
  readonly nonce: number;
  readonly bits: number;
  readonly difficulty: number;
  readonly chainwork: string;
  /** null on nodes without `nTx` in getblockheader (Dogecoin Core 1.14). */
  readonly nTx: number | null;
  readonly previousBlockHash: string | null;
  readonly nextBlockHash: string | null;
}

/** The node's mempool entry: the package figures of core's MempoolPackage (counts include the tx) and more. */
export interface MempoolEntry extends Omit<MempoolPackage, 'fee'> {
  /** null on nodes without segwit (dogecoind). */
  readonly wtxid: string | null;
  readonly weight: number | null;
  /** Entry time, unix seconds. */
  readonly time: number;
  /** Chain height when the tx entered the mempool. */
  readonly height: number;
  readonly fee: Sats;
  /** Fee after prioritisetransaction deltas: what mining uses. */
  readonly modifiedFee: Sats;
  /** In-mempool parents. */
  readonly depends: readonly string[];
  /** In-mempool children; null when the node does not list them (Dogecoin Core 1.14 has no `spentby`). */
  readonly spentBy: readonly string[] | null;
  /** BIP125 signal (or full-RBF policy); null when the node does not say. */
  readonly replaceable: boolean | null;
}

export interface MempoolInfo {
  /** null when the node does not say (no `loaded` before Core 0.19; Dogecoin Core 1.14). */
  readonly loaded: boolean | null;
  readonly size: number;
  readonly bytes: number;
  readonly usage: number;
  readonly maxMempool: number;
  /** Base units per 1000 virtual bytes. */
  readonly mempoolMinFee: Sats;
  /** Base units per 1000 bytes; null on nodes that report it only in getnetworkinfo (Dogecoin Core 1.14: `relayfee`). */
  readonly minRelayTxFee: Sats | null;
  /** Core 23+; null on older nodes (litecoind 0.21, dogecoind). */
  readonly totalFee: Sats | null;
}

type Json = Record<string, unknown>;

export function parseBlockchainInfo(reply: unknown): BlockchainInfo {
  const r = reply as Json;
  return {
    chain: str(r.chain),
    blocks: num(r.blocks),
    headers: num(r.headers),
    bestBlockHash: str(r.bestblockhash),
    difficulty: Number(r.difficulty),
    medianTime: num(r.mediantime),
    verificationProgress: Number(r.verificationprogress),
    initialBlockDownload: typeof r.initialblockdownload === 'boolean' ? r.initialblockdownload : null,
    chainwork: str(r.chainwork),
    pruned: r.pruned === true,
  };
}

export function parseBlockHeaderInfo(reply: unknown): BlockHeaderInfo {
  const r = reply as Json;
  return {
    hash: str(r.hash),
    confirmations: num(r.confirmations),
    height: num(r.height),
    version: num(r.version),
    merkleRoot: str(r.merkleroot),
    time: num(r.time),
    medianTime: num(r.mediantime),
    nonce: num(r.nonce),
    bits: Number.parseInt(str(r.bits), 16),
    difficulty: Number(r.difficulty),
    chainwork: str(r.chainwork),
    nTx: typeof r.nTx === 'number' ? r.nTx : null,
    previousBlockHash: typeof r.previousblockhash === 'string' ? r.previousblockhash : null,
    nextBlockHash: typeof r.nextblockhash === 'string' ? r.nextblockhash : null,
  };
}

/** `getrawmempool true` parsed with exactDecimals. */
export function parseMempoolEntries(reply: unknown): Map<string, MempoolEntry> {
  const out = new Map<string, MempoolEntry>();
  for (const [txid, value] of Object.entries(reply as Json)) out.set(txid, parseMempoolEntry(txid, value as Json));
  return out;
}

export function parseMempoolEntry(txid: string, e: Json): MempoolEntry {
  const fees = e.fees as Json | undefined;
  const fee = coins(fees?.base ?? e.fee);
  const modifiedFee = coins(fees?.modified ?? e.modifiedfee ?? e.fee);
  return {
    txid,
    wtxid: typeof e.wtxid === 'string' ? e.wtxid : null,
    vsize: num(e.vsize ?? e.size),
    weight: typeof e.weight === 'number' ? e.weight : null,
    time: num(e.time),
    height: num(e.height),
    fee,
    modifiedFee,
    ancestorCount: num(e.ancestorcount),
    ancestorSize: num(e.ancestorsize),
    // before the `fees` object, ancestorfees/descendantfees were integer base units
    ancestorFee: fees ? coins(fees.ancestor) : BigInt(num(e.ancestorfees)),
    descendantCount: num(e.descendantcount),
    descendantSize: num(e.descendantsize),
    descendantFee: fees ? coins(fees.descendant) : BigInt(num(e.descendantfees)),
    depends: strings(e.depends),
    spentBy: Array.isArray(e.spentby) ? strings(e.spentby) : null,
    replaceable: typeof e['bip125-replaceable'] === 'boolean' ? e['bip125-replaceable'] : null,
  };
}

/** `getmempoolinfo` parsed with exactDecimals. */
export function parseMempoolInfo(reply: unknown): MempoolInfo {
  const r = reply as Json;
  return {
    loaded: typeof r.loaded === 'boolean' ? r.loaded : null,
    size: num(r.size),
    bytes: num(r.bytes),
    usage: num(r.usage),
    maxMempool: num(r.maxmempool),
    mempoolMinFee: coins(r.mempoolminfee),
    minRelayTxFee: r.minrelaytxfee === undefined ? null : coins(r.minrelaytxfee),
    totalFee: r.total_fee === undefined ? null : coins(r.total_fee),
  };
}

export interface NetworkInfo {
  /** The node's version number (e.g. 1140900 for Dogecoin Core 1.14.9, 290000 for Core 29). */
  readonly version: number;
  readonly subversion: string;
  /** Minimum relay fee, base units per 1000 (virtual) bytes: every supported node reports it here. */
  readonly relayFee: Sats;
  readonly incrementalFee: Sats | null;
  /** Dogecoin Core: outputs below it add this much to the required fee. null elsewhere. */
  readonly softDustLimit: Sats | null;
  /** Dogecoin Core: outputs below it are not relayed. null elsewhere. */
  readonly hardDustLimit: Sats | null;
}

/** `getnetworkinfo` parsed with exactDecimals. */
export function parseNetworkInfo(reply: unknown): NetworkInfo {
  const r = reply as Json;
  const optional = (value: unknown): Sats | null => (value === undefined ? null : coins(value));
  return {
    version: num(r.version),
    subversion: str(r.subversion),
    relayFee: coins(r.relayfee),
    incrementalFee: optional(r.incrementalfee),
    softDustLimit: optional(r.softdustlimit),
    hardDustLimit: optional(r.harddustlimit),
  };
}

/** A coin amount as exactDecimals delivers it: decimal text, or a plain integer number of coins. */
export function coins(value: unknown): Sats {
  if (typeof value === 'string') return parseCoins(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value) * 100_000_000n;
  throw new TypeError(`not a coin amount: ${String(value)}`);
}

function num(value: unknown): number {
  if (typeof value !== 'number') throw new TypeError(`node reply: expected a number, got ${String(value)}`);
  return value;
}

function str(value: unknown): string {
  if (typeof value !== 'string') throw new TypeError(`node reply: expected a string, got ${String(value)}`);
  return value;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
