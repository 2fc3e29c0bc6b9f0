/**
 * A Dogecoin Core 1.14 stand-in for tests (no dogecoind can be installed here): the JSON-RPC server and ZMQ
 * publisher of ../../../../shared/nodes/dogecoin-1.14.md over a real in-memory chain and mempool, mining
 * merge-mined regtest blocks with our chains library. Like a node it has a datadir with a `.cookie`
 * (`__cookie__:<hex>`, no newline, rewritten at each start, deleted at stop), a warm-up during which every call
 * answers -28, and halt()/resume() on the same ports. Where 1.14 builds differ, options pick the behaviour.
 * Test drivers beyond RPC (mine given txs, evict) stand in for what a second miner or the clock would do.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Transaction } from '../../../src/core/domain/chain-types.js';
import type { ChainKind } from '../../../src/core/domain/network.js';
import { getNetworkParams } from '../../../src/chains/networks.js';
import { addressToScript } from '../../../src/chains/addressing.js';
import { NodeClient } from '../../../src/node/rpc/node-client.js';
import { RpcClient, type RpcClientOptions } from '../../../src/node/rpc/rpc-client.js';
import { freePort } from '../free-port.js';
import { DogecoinCore } from './dogecoin-core.js';
import { DEFAULT_POLICY, type Policy } from './regtest-rules.js';
import type { Dialect } from './rpc-context.js';
import { RpcServer } from './rpc-server.js';
import { StandInWallet } from './wallet.js';
import { ZMQ_TOPICS, ZmqPublisher, type ZmqTopic } from './zmq-publisher.js';

export interface StandInOptions {
  readonly network?: ChainKind;
  /** '1.14.6': bool-only getblock and no initialblockdownload; '1.14.9' (default): both modern. */
  readonly version?: '1.14.6' | '1.14.9';
  readonly getblockBoolOnly?: boolean;
  readonly initialBlockDownloadField?: boolean;
  readonly txindex?: boolean;
  /** hashtx also for txs of disconnected blocks and txs a block conflicted (0.14's SyncTransaction reading of the sources). */
  readonly syncOnRemoval?: boolean;
  /** Topics published on one endpoint (default all four); an empty list: ZMQ off. */
  readonly zmqTopics?: readonly ZmqTopic[];
  /** How long each start answers -28 (default 150 ms). */
  readonly warmupMs?: number;
  readonly policy?: Partial<Policy>;
  /** Mine 61 blocks to the wallet: one coinbase (500,000 DOGE) is mature. */
  readonly funded?: boolean;
}

const RPC_USER = 'outpoint';
const live = new Set<DogecoinStandIn>();
process.on('exit', () => {
  for (const s of live) rmSync(s.datadir, { recursive: true, force: true });
});

const NET_DIRS: Record<ChainKind, string> = { main: '', test: 'testnet3', regtest: 'regtest' };

export class DogecoinStandIn {
  readonly core: DogecoinCore;
  readonly dialect: Dialect;
  readonly datadir = mkdtempSync(join(tmpdir(), 'outpoint-doge-'));
  readonly cookieFile: string;
  readonly rpc: RpcClient;
  readonly node: NodeClient;
  readonly wallet: StandInWallet;
  readonly #password = randomBytes(16).toString('hex');
  readonly #clients: RpcClient[] = [];
  #cookie = '';
  readonly #rpcPort: number;
  #zmqPort = 0;
  #server: RpcServer | null = null;
  #zmq: ZmqPublisher | null = null;
  #warmupUntil = 0;

  private constructor(
    readonly options: StandInOptions,
    rpcPort: number,
  ) {
    this.#rpcPort = rpcPort;
    const chain = options.network ?? 'regtest';
    const modern = (options.version ?? '1.14.9') !== '1.14.6';
    this.dialect = {
      version: modern ? 1140900 : 1140600,
      getblockBoolOnly: options.getblockBoolOnly ?? !modern,
      initialBlockDownloadField: options.initialBlockDownloadField ?? modern,
      txindex: options.txindex ?? false,
    };
    this.core = new DogecoinCore({
      params: getNetworkParams(chain === 'main' ? 'DOGE' : 'DOGETEST', chain),
      policy: { ...DEFAULT_POLICY, ...options.policy },
      syncOnRemoval: options.syncOnRemoval ?? false,
      now: () => Math.floor(Date.now() / 1000),
    });
    this.cookieFile = join(this.datadir, NET_DIRS[chain], '.cookie');
    this.rpc = this.client({});
    this.node = new NodeClient(this.rpc);
    this.wallet = new StandInWallet(this.core, this.rpc);
  }

  static async start(options: StandInOptions = {}, startup: { waitWarm?: boolean } = {}): Promise<DogecoinStandIn> {
    // Chosen before the first listen so the clients made in the constructor know the URL (a restart keeps it).
    const standin = new DogecoinStandIn(options, await freePort());
    live.add(standin);
    await standin.resume(startup);
    if (options.funded) await standin.mine(61);
    return standin;
  }

  get rpcUrl(): string {
    return `http://${RPC_USER}:${this.#password}@127.0.0.1:${this.#rpcPort}/`;
  }

  /** The shared ZMQ endpoint, null when ZMQ is off. */
  get zmqUrl(): string | null {
    return this.#zmqPort === 0 ? null : `tcp://127.0.0.1:${this.#zmqPort}`;
  }

  /** Calls answered per method since the last (re)start. */
  get calls(): ReadonlyMap<string, number> {
    return this.#server?.calls ?? new Map();
  }

  get running(): boolean {
    return this.#server !== null;
  }

  /** An RpcClient on this node (URL credentials unless overridden), closed with the stand-in. */
  client(options: Partial<RpcClientOptions>): RpcClient {
    const client = new RpcClient({ url: this.rpcUrl, retries: 0, timeoutMs: 30_000, ...options });
    this.#clients.push(client);
    return client;
  }

  /** Starts (or restarts) RPC and ZMQ on the same ports with a fresh cookie; by default waits out the warm-up. */
  async resume(options: { waitWarm?: boolean } = {}): Promise<void> {
    if (this.#server) throw new Error('stand-in already running');
    this.#cookie = `__cookie__:${randomBytes(32).toString('hex')}`;
    await mkdir(join(this.datadir, NET_DIRS[this.core.params.chain]), { recursive: true });
    await writeFile(this.cookieFile, this.#cookie);
    this.#warmupUntil = Date.now() + (this.options.warmupMs ?? 150);
    const server = new RpcServer({
      ctx: { core: this.core, dialect: this.dialect, requestStop: () => setImmediate(() => void this.halt()) },
      credentials: () => [`${RPC_USER}:${this.#password}`, this.#cookie],
      warmupStatus: () => this.#warmupStatus(),
    });
    await server.listen(this.#rpcPort);
    this.#server = server;
    const topics = this.options.zmqTopics ?? ZMQ_TOPICS;
    if (topics.length > 0) {
      this.#zmqPort ||= await freePort();
      this.#zmq = await ZmqPublisher.bind(new Map(topics.map((t) => [t, `tcp://127.0.0.1:${this.#zmqPort}`])));
      this.core.signals = this.#zmq;
    }
    if (options.waitWarm !== false) await this.waitWarm();
  }

  /** Stops serving (the chain stays, the mempool is dropped as with -persistmempool=0) and deletes the cookie. */
  async halt(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = null;
    for (const client of this.#clients) client.close();
    await server.close();
    this.core.signals = null;
    await this.#zmq?.close();
    this.#zmq = null;
    this.core.mempool.remove([...this.core.mempool.entries.keys()]);
    await rm(this.cookieFile, { force: true });
  }

  async stop(): Promise<void> {
    await this.halt();
    await rm(this.datadir, { recursive: true, force: true });
    live.delete(this);
  }

  /** Resolves once the warm-up is over. */
  async waitWarm(): Promise<void> {
    const left = this.#warmupUntil - Date.now();
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left + 5));
  }

  newAddress(): Promise<string> {
    return Promise.resolve(this.wallet.newAddress());
  }

  /** generatetoaddress over RPC (default: to a fresh wallet address). */
  async mine(n: number, address?: string): Promise<string[]> {
    return this.rpc.call<string[]>('generatetoaddress', [n, address ?? this.wallet.newAddress()]);
  }

  /** Test driver (like a block from another miner): a block with exactly these txs, consensus-checked. */
  mineWith(txs: readonly Transaction[], address?: string, options: { auxpow?: boolean } = {}): string {
    const payTo = addressToScript(this.core.params, address ?? this.wallet.newAddress());
    return this.core.mineOne({ payTo, txs, ...options });
  }

  send(address: string, amount: string): Promise<string> {
    return this.wallet.send(address, amount);
  }

  /** The confirmed UTXOs paying `address` (what scantxoutset answers on newer nodes; 1.14 has no such call). */
  confirmedUtxos(address: string): Promise<{ total: bigint; outpoints: string[] }> {
    const script = Buffer.from(addressToScript(this.core.params, address)).toString('hex');
    const coins = [...this.core.chain.utxos.values()].filter((c) => Buffer.from(c.script).toString('hex') === script);
    return Promise.resolve({ total: coins.reduce((s, c) => s + c.value, 0n), outpoints: coins.map((c) => `${c.txid}:${c.vout}`).sort() });
  }

  #warmupStatus(): string | null {
    const left = this.#warmupUntil - Date.now();
    if (left <= 0) return null;
    return left > (this.options.warmupMs ?? 150) / 2 ? 'Loading block index...' : 'Verifying blocks...';
  }
}

export function startDogecoinStandIn(options: StandInOptions = {}, startup: { waitWarm?: boolean } = {}): Promise<DogecoinStandIn> {
  return DogecoinStandIn.start(options, startup);
}
