/**
 * A stand-in for bitcoind's JSON-RPC, serving a generated chain (ChainFiles) up to a `revealed` height that the
 * benchmark moves forward (`standin_reveal`, or reveal()) to make the chain grow under a running indexer. It answers
 * what Outpoint's node client calls (src/node: getblockcount, getbestblockhash, getblockhash, getblock raw, batches,
 * getblockchaininfo, getblockheader, getrawmempool, getmempoolinfo, the poll notifier's batch) with Core's reply
 * shapes, error codes and HTTP statuses (JSON-RPC 1.0: 500 for an error, 404 for an unknown method, 200 for any
 * batch). Block bytes stream from the files as hex, never held whole as strings. The mempool is empty until
 * `standin_mempool_add <count>` adds txs (stand-in-mempool.ts); `standin_mempool_watched` names the addresses they pay.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseBlock } from '../../src/chains/parsing.js';
import { params } from './chain-params.js';
import type { ChainFiles } from './block-files.js';
import { StandInMempool } from './stand-in-mempool.js';
import {
  json, RPC_INVALID_ADDRESS_OR_KEY, RPC_INVALID_PARAMETER, RPC_METHOD_NOT_FOUND, RPC_MISC_ERROR, RPC_PARSE_ERROR, RPC_VERIFY_REJECTED,
  RpcFailure, type Reply, type Result,
} from './stand-in-rpc.js';

export interface StandInNodeOptions {
  readonly chain: ChainFiles;
  /** Highest height served at first (default: the whole chain). */
  readonly revealed?: number;
  /** Basic-auth credentials required when given (as rpcuser/rpcpassword). */
  readonly user?: string;
  readonly password?: string;
  /** Seed of the mempool's txs (default 1). */
  readonly mempoolSeed?: number;
}

export class StandInNode {
  private revealedHeight: number;
  private readonly server: http.Server;
  private readonly startedAt = Date.now();
  /** Requests and block bytes served (for the benchmark's serving-rate figure). */
  readonly served = { requests: 0, calls: 0, blockBytes: 0 };
  readonly mempool: StandInMempool;

  constructor(private readonly options: StandInNodeOptions) {
    this.revealedHeight = Math.min(options.revealed ?? options.chain.tipHeight, options.chain.tipHeight);
    this.mempool = new StandInMempool({ chain: options.chain, seed: options.mempoolSeed ?? 1 });
    this.server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => void this.handle(req, res));
  }

  get revealed(): number {
    return this.revealedHeight;
  }

  /** Serves the chain up to `height` (clamped to the generated tip); returns the height now served. */
  reveal(height: number): number {
    this.revealedHeight = Math.max(0, Math.min(height, this.options.chain.tipHeight));
    return this.revealedHeight;
  }

  /** Listens on loopback; returns the RPC URL with the credentials. */
  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    const { port: bound } = this.server.address() as AddressInfo;
    const auth = this.options.user !== undefined ? `${encodeURIComponent(this.options.user)}:${encodeURIComponent(this.options.password ?? '')}@` : '';
    return `http://${auth}${host}:${bound}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST') return void res.writeHead(405).end();
    if (!this.authorized(req.headers.authorization)) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="jsonrpc"' }).end();
    this.served.requests++;
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return this.send(res, 500, [{ id: null, reply: { error: { code: RPC_PARSE_ERROR, message: 'Parse error' } } }], false);
    }
    const calls = Array.isArray(body) ? body : [body];
    const replies = await Promise.all(calls.map(async (call: unknown) => ({ id: idOf(call), reply: await this.dispatch(call) })));
    if (Array.isArray(body)) return this.send(res, 200, replies, true);
    const only = replies[0]!.reply;
    const status = 'error' in only ? (only.error.code === RPC_METHOD_NOT_FOUND ? 404 : 500) : 200;
    return this.send(res, status, replies, false);
  }

  private authorized(header: string | undefined): boolean {
    if (this.options.user === undefined) return true;
    const expected = `Basic ${Buffer.from(`${this.options.user}:${this.options.password ?? ''}`).toString('base64')}`;
    return header === expected;
  }

  /** Writes the replies with an exact Content-Length, hex results streamed from their bytes. */
  private send(res: http.ServerResponse, status: number, replies: { id: unknown; reply: Reply }[], batch: boolean): void {
    const pieces: (string | Buffer)[] = [];
    if (batch) pieces.push('[');
    replies.forEach(({ id, reply }, i) => {
      if (i > 0) pieces.push(',');
      if ('error' in reply) {
        pieces.push(`{"result":null,"error":${JSON.stringify(reply.error)},"id":${JSON.stringify(id ?? null)}}`);
      } else if ('hex' in reply.result) {
        pieces.push('{"result":"', reply.result.hex, `","error":null,"id":${JSON.stringify(id ?? null)}}`);
      } else {
        pieces.push(`{"result":${reply.result.json},"error":null,"id":${JSON.stringify(id ?? null)}}`);
      }
    });
    pieces.push(batch ? ']\n' : '\n');
    let length = 0;
    for (const piece of pieces) length += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length * 2;
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': length });
    for (const piece of pieces) res.write(typeof piece === 'string' ? piece : piece.toString('hex'));
    res.end();
  }

  private async dispatch(call: unknown): Promise<Reply> {
    this.served.calls++;
    const { method, params: args } = (call ?? {}) as { method?: unknown; params?: unknown };
    try {
      if (typeof method !== 'string') throw new RpcFailure(-32600, 'Method must be a string');
      return { result: await this.call(method, Array.isArray(args) ? (args as unknown[]) : []) };
    } catch (err) {
      if (err instanceof RpcFailure) return { error: { code: err.code, message: err.message } };
      return { error: { code: RPC_MISC_ERROR, message: err instanceof Error ? err.message : String(err) } };
    }
  }

  private async call(method: string, args: unknown[]): Promise<Result> {
    const chain = this.options.chain;
    const tip = this.revealedHeight;
    const fromMempool = this.mempool.call(method, args);
    if (fromMempool) return fromMempool;
    switch (method) {
      case 'getblockcount':
        return json(tip);
      case 'getbestblockhash':
        return json(chain.hashAt(tip));
      case 'getblockhash': {
        const height = args[0];
        if (typeof height !== 'number' || !Number.isInteger(height) || height < 0 || height > tip) {
          throw new RpcFailure(RPC_INVALID_PARAMETER, 'Block height out of range');
        }
        return json(chain.hashAt(height));
      }
      case 'getblock': {
        const height = this.blockHeight(args[0]);
        const verbosity = args[1] ?? 1;
        if (verbosity !== 0 && verbosity !== false) throw new RpcFailure(RPC_INVALID_PARAMETER, 'the stand-in node serves raw blocks only (verbosity 0)');
        const raw = await chain.readBlock(height);
        this.served.blockBytes += raw.length;
        return { hex: raw };
      }
      case 'getblockheader': {
        const height = this.blockHeight(args[0]);
        const header = await chain.read(height, 80);
        if (args[1] === false) return { hex: header };
        return json(this.headerJson(height, header));
      }
      case 'getblockchaininfo':
        return json({
          chain: 'regtest', blocks: tip, headers: tip, bestblockhash: chain.hashAt(tip), difficulty: REGTEST_DIFFICULTY,
          time: chain.time(tip), mediantime: this.medianTime(tip), verificationprogress: 1, initialblockdownload: false,
          chainwork: chainwork(tip), size_on_disk: 0, pruned: false, warnings: '',
        });
      case 'getrawtransaction':
        return this.rawTransaction(args);
      case 'sendrawtransaction':
        throw new RpcFailure(RPC_VERIFY_REJECTED, 'the stand-in node accepts no transactions');
      case 'getnetworkhashps':
        return json(2 / params.targetSpacing);
      case 'getzmqnotifications':
        return json([]);
      case 'getnetworkinfo':
        return json({ version: 270000, subversion: '/Satoshi:27.0.0(outpoint-stand-in)/', protocolversion: 70016, connections: 0, networkactive: true, warnings: '' });
      case 'uptime':
        return json(Math.floor((Date.now() - this.startedAt) / 1000));
      case 'standin_reveal': {
        const height = args[0];
        if (typeof height !== 'number' || !Number.isInteger(height)) throw new RpcFailure(RPC_INVALID_PARAMETER, 'height must be an integer');
        return json(this.reveal(height));
      }
      case 'standin_mempool_add': {
        const count = args[0];
        if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) throw new RpcFailure(RPC_INVALID_PARAMETER, 'count must be a non-negative integer');
        return json(await this.mempool.add(count, tip));
      }
      case 'standin_mempool_watched':
        return json(await this.mempool.watched(tip));
      case 'standin_info':
        return json({ revealed: tip, tip: chain.tipHeight, served: this.served, mempool: this.mempool.size });
      default:
        throw new RpcFailure(RPC_METHOD_NOT_FOUND, 'Method not found');
    }
  }

  /** The height of a served block by hash; unknown and not yet revealed blocks are "not found", as on a node. */
  private blockHeight(hash: unknown): number {
    const height = typeof hash === 'string' ? this.options.chain.heightOf(hash) : undefined;
    if (height === undefined || height > this.revealedHeight) throw new RpcFailure(RPC_INVALID_ADDRESS_OR_KEY, 'Block not found');
    return height;
  }

  /** With a block hash (Core's third argument) the tx is found in that block; without -txindex nothing else is. */
  private async rawTransaction(args: unknown[]): Promise<Result> {
    const [txid, verbose, blockhash] = args;
    if (blockhash === undefined || blockhash === null) {
      throw new RpcFailure(RPC_INVALID_ADDRESS_OR_KEY, 'No such mempool transaction. Use -txindex or provide a block hash to enable blockchain transaction queries. Use gettransaction for wallet transactions.');
    }
    if (verbose !== undefined && verbose !== false && verbose !== 0) throw new RpcFailure(RPC_INVALID_PARAMETER, 'the stand-in node serves raw transactions only');
    const height = this.blockHeight(blockhash);
    const block = parseBlock(await this.options.chain.readBlock(height), params.features);
    const tx = block.txs.find((t) => t.txid === txid);
    if (!tx) throw new RpcFailure(RPC_INVALID_ADDRESS_OR_KEY, 'No such transaction found in the provided block. Use gettransaction for wallet transactions.');
    return { hex: Buffer.from(tx.raw) };
  }

  private headerJson(height: number, header: Buffer): Record<string, unknown> {
    const chain = this.options.chain;
    return {
      hash: chain.hashAt(height),
      confirmations: this.revealedHeight - height + 1,
      height,
      version: header.readInt32LE(0),
      versionHex: header.readUInt32LE(0).toString(16).padStart(8, '0'),
      merkleroot: Buffer.from(header.subarray(36, 68)).reverse().toString('hex'),
      time: header.readUInt32LE(68),
      mediantime: this.medianTime(height),
      nonce: header.readUInt32LE(76),
      bits: header.readUInt32LE(72).toString(16).padStart(8, '0'),
      difficulty: REGTEST_DIFFICULTY,
      chainwork: chainwork(height),
      nTx: chain.txCount(height),
      ...(height > 0 ? { previousblockhash: chain.hashAt(height - 1) } : {}),
      ...(height < this.revealedHeight ? { nextblockhash: chain.hashAt(height + 1) } : {}),
    };
  }

  private medianTime(height: number): number {
    const times: number[] = [];
    for (let h = Math.max(0, height - 10); h <= height; h++) times.push(this.options.chain.time(h));
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)]!;
  }
}

/** Difficulty of regtest's bits 0x207fffff, as bitcoind prints it. */
const REGTEST_DIFFICULTY = 4.656542373906925e-10;

/** Regtest work is 2 per block: chainwork of height h is 2 * (h + 1), as 64 hex digits. */
function chainwork(height: number): string {
  return (2 * (height + 1)).toString(16).padStart(64, '0');
}

function idOf(call: unknown): unknown {
  return call !== null && typeof call === 'object' && 'id' in call ? (call as { id: unknown }).id : null;
}
