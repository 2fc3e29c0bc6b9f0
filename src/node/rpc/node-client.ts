import { RpcError } from '../../core/domain/errors.js';
import type { RpcClient } from './rpc-client.js';
import { txidListOf, type TxidList } from '../../core/domain/txid-set.js';
import { readTxidListReply } from './txid-list-reply.js';
import { VerboseMempoolDecoder } from './verbose-mempool-decoder.js';
import type { Sats } from '../../core/domain/money.js';
import {
  parseBlockchainInfo,
  parseBlockHeaderInfo,
  parseMempoolEntries,
  parseMempoolEntry,
  parseMempoolInfo,
  parseNetworkInfo,
  type BlockchainInfo,
  type BlockHeaderInfo,
  type MempoolEntry,
  type MempoolInfo,
  type NetworkInfo,
} from './node-replies.js';

export type { BlockchainInfo, BlockHeaderInfo, MempoolEntry, MempoolInfo, NetworkInfo } from './node-replies.js';

/** Core's RPC_INVALID_ADDRESS_OR_KEY: "No such mempool or blockchain transaction", unknown block. */
const RPC_INVALID_ADDRESS_OR_KEY = -5;

/**
 * The node calls Outpoint makes, typed. Blocks and transactions travel as raw bytes (verbosity
 * 0/false): it is the cheapest form for the node to produce, it works the same on bitcoind,
 * litecoind and dogecoind 1.14, and our own parser is the single source of derived fields.
 * Every call here exists on Dogecoin Core 1.14 with the parameters used (docs/node.md lists them, with
 * the facts they rest on): no verbosity integers, no second `sendrawtransaction` parameter, no calls
 * newer than Bitcoin Core 0.14 (`getzmqnotifications`, `testmempoolaccept`, `scantxoutset`).
 */
export class NodeClient {
  /** Started at the first verbose mempool read; its idle worker does not keep the process alive. */
  #verbose: VerboseMempoolDecoder | null = null;

  constructor(readonly rpc: RpcClient) {}

  async getBlockchainInfo(): Promise<BlockchainInfo> {
    return parseBlockchainInfo(await this.rpc.call('getblockchaininfo'));
  }

  getBestBlockHash(): Promise<string> {
    return this.rpc.call<string>('getbestblockhash');
  }

  getBlockHash(height: number): Promise<string> {
    return this.rpc.call<string>('getblockhash', [height]);
  }

  async getRawBlock(hash: string): Promise<Uint8Array> {
    // `false` rather than 0: dogecoind 1.14 only knows the boolean form
    return fromHex(await this.rpc.call<string>('getblock', [hash, false]));
  }

  /** One HTTP request for all hashes; the first failing hash throws its RpcError. */
  async getRawBlocks(hashes: readonly string[]): Promise<Uint8Array[]> {
    const replies = await this.rpc.batch<string>(hashes.map((hash) => ({ method: 'getblock', params: [hash, false] })));
    return replies.map((reply) => {
      if (reply instanceof RpcError) throw reply;
      return fromHex(reply);
    });
  }

  async getBlockHeader(hash: string): Promise<BlockHeaderInfo> {
    return parseBlockHeaderInfo(await this.rpc.call('getblockheader', [hash, true]));
  }

  getRawMempool(): Promise<string[]> {
    return this.rpc.call<string[]>('getrawmempool', [false]);
  }

  /** The same list read where it lies in the reply (txid-list-reply.ts): what a poll diffs against what it has. */
  getMempoolTxidList(): Promise<TxidList> {
    return this.rpc.callReading('getrawmempool', [false], readTxidListReply, (result) => txidListOf(result as string[]));
  }

  /**
   * Every mempool entry with fees as bigint base units (decimals parsed from the JSON text), decoded on a worker thread
   * (verbose-mempool-decoder.ts: over 10 MB of JSON on a mainnet-sized mempool); a reply the worker does not take
   * (an error) is decoded here.
   */
  async getRawMempoolVerbose(): Promise<Map<string, MempoolEntry>> {
    this.#verbose ??= new VerboseMempoolDecoder();
    const decoder = this.#verbose;
    return this.rpc.callReading('getrawmempool', [true], (body) => decoder.decode(body), parseMempoolEntries, { exactDecimals: true });
  }

  /** Batched `getmempoolentry`; a tx no longer in the mempool (-5) gives null, any other error throws. */
  async getMempoolEntries(txids: readonly string[]): Promise<Array<MempoolEntry | null>> {
    const replies = await this.rpc.batch<unknown>(txids.map((txid) => ({ method: 'getmempoolentry', params: [txid] })), { exactDecimals: true });
    return replies.map((reply, i) => {
      if (reply instanceof RpcError) {
        if (reply.rpcCode === RPC_INVALID_ADDRESS_OR_KEY) return null;
        throw reply;
      }
      return parseMempoolEntry(txids[i]!, reply as Record<string, unknown>);
    });
  }

  async getMempoolInfo(): Promise<MempoolInfo> {
    return parseMempoolInfo(await this.rpc.call('getmempoolinfo', [], { exactDecimals: true }));
  }

  async getNetworkInfo(): Promise<NetworkInfo> {
    return parseNetworkInfo(await this.rpc.call('getnetworkinfo', [], { exactDecimals: true }));
  }

  /**
   * Mempool state and the minimum relay fee (base units per 1000 bytes) in one request. Newer nodes put the
   * relay fee in getmempoolinfo (`minrelaytxfee`); Dogecoin Core 1.14 only in getnetworkinfo (`relayfee`), which
   * every supported node has, so both are asked for and the mempool's own figure wins where it exists.
   */
  async getMempoolPolicy(): Promise<{ info: MempoolInfo; relayFee: Sats }> {
    const [mempool, network] = await this.rpc.batch<unknown>([{ method: 'getmempoolinfo' }, { method: 'getnetworkinfo' }], { exactDecimals: true });
    if (mempool instanceof RpcError) throw mempool;
    if (network instanceof RpcError) throw network;
    const info = parseMempoolInfo(mempool);
    return { info, relayFee: info.minRelayTxFee ?? parseNetworkInfo(network).relayFee };
  }

  async getRawTransaction(txid: string): Promise<Uint8Array> {
    return fromHex(await this.rpc.call<string>('getrawtransaction', [txid, false]));
  }

  /** Batched; a transaction the node does not know (-5) gives null, any other error throws. */
  async getRawTransactions(txids: readonly string[]): Promise<Array<Uint8Array | null>> {
    const replies = await this.rpc.batch<string>(txids.map((txid) => ({ method: 'getrawtransaction', params: [txid, false] })));
    return replies.map((reply) => {
      if (reply instanceof RpcError) {
        if (reply.rpcCode === RPC_INVALID_ADDRESS_OR_KEY) return null;
        throw reply;
      }
      return fromHex(reply);
    });
  }

  /**
   * Returns the txid. Rejections surface as RpcError (-25 missing inputs, -26 policy, -27 already in the chain).
   * Only the hex is sent: the second parameter is a bool (allowhighfees) on Dogecoin Core 1.14 and a number
   * (maxfeerate) on Core 0.19+, so each node keeps its own default fee ceiling.
   */
  sendRawTransaction(tx: string | Uint8Array): Promise<string> {
    const hex = typeof tx === 'string' ? tx : Buffer.from(tx.buffer, tx.byteOffset, tx.byteLength).toString('hex');
    return this.rpc.call<string>('sendrawtransaction', [hex]);
  }

  /** Estimated network hashes per second over the last 120 blocks (a float: an estimate, not an amount). */
  getNetworkHashPs(): Promise<number> {
    return this.rpc.call<number>('getnetworkhashps');
  }
}

function fromHex(hex: string): Uint8Array {
  const buf = Buffer.from(hex, 'hex');
  if (buf.length * 2 !== hex.length) throw new RangeError('node returned malformed hex');
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}
