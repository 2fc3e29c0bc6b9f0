/**
 * A real regtest node per test: random loopback ports, a temporary datadir, cookie and
 * user/password auth, an optional funded wallet. A missing binary FAILS (CI installs them):
 * a skipped integration test would hide exactly the regressions it exists to catch.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { accessSync, constants, rmSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { NodeClient } from '../../src/node/rpc/node-client.js';
import { RpcClient } from '../../src/node/rpc/rpc-client.js';
import { freePorts } from './free-port.js';
import { waitFor } from './wait-for.js';

// The tests' poller, kept importable from here where most of them get their node.
export { waitFor } from './wait-for.js';

export type AddressType = 'legacy' | 'p2sh-segwit' | 'bech32' | 'bech32m' | 'mweb';
export type RegtestCoin = 'BTC' | 'LTC';

export interface RegtestNodeOptions {
  /** Create wallet "w" and mine 101 blocks to it so it has a mature coinbase. */
  readonly funded?: boolean;
  /** Create wallet "w" (implied by funded). Default true. */
  readonly wallet?: boolean;
  readonly extraArgs?: readonly string[];
  /**
   * Whitelist loopback peers (default true): they get transactions announced at once. false keeps Core's Poisson
   * announcement timers (5 s to inbound, 2 s to outbound peers on average), as on a real network.
   */
  readonly whitelist?: boolean;
  /** Path to the daemon; default from LITECOIND / BITCOIND or the standard install places. */
  readonly binary?: string;
}

const RPC_USER = 'outpoint';
const WALLET = 'w';
const live = new Set<RegtestNode>();

// A crashed test must not leave daemons (and their datadirs) behind.
process.on('exit', () => {
  for (const node of live) node.forceCleanupSync();
});

export function startLitecoind(opts: RegtestNodeOptions = {}): Promise<RegtestNode> {
  const binary = opts.binary ?? process.env.LITECOIND ?? '/usr/lib/litecoin/litecoind';
  return RegtestNode.start('LTC', requireBinary(binary, 'litecoind', 'LITECOIND', 'the Debian package litecoind'), opts);
}

export function startBitcoind(opts: RegtestNodeOptions = {}): Promise<RegtestNode> {
  const binary = opts.binary ?? process.env.BITCOIND ?? '/opt/bitcoind/bin/bitcoind';
  return RegtestNode.start('BTC', requireBinary(binary, 'bitcoind', 'BITCOIND', 'sudo bash scripts/install-bitcoind.sh /opt/bitcoind'), opts);
}

function requireBinary(path: string, name: string, envVar: string, howToInstall: string): string {
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    throw new Error(`${name} not found or not executable at ${path}: install it (${howToInstall}) or set ${envVar}. Integration tests never skip.`);
  }
}

function rpcAuthArg(user: string, password: string): string {
  const salt = randomBytes(16).toString('hex');
  const hash = createHmac('sha256', salt).update(password).digest('hex');
  return `-rpcauth=${user}:${salt}$${hash}`;
}

export class RegtestNode {
  readonly rpc: RpcClient;
  /** Wallet-scoped client (…/wallet/w); equals `rpc` in reach when only one wallet is loaded. */
  readonly wallet: RpcClient;
  readonly node: NodeClient;
  readonly rpcUrl: string;
  readonly cookieFile: string;
  readonly zmqUrl: string | null;
  #process: ChildProcess | null = null;
  #exited: Promise<void> = Promise.resolve();
  #stderr = '';
  readonly #clients: RpcClient[] = [];

  private constructor(
    readonly coin: RegtestCoin,
    readonly binary: string,
    readonly datadir: string,
    readonly rpcPort: number,
    readonly p2pPort: number,
    zmqPort: number | null,
    password: string,
    readonly args: readonly string[],
  ) {
    this.rpcUrl = `http://${RPC_USER}:${password}@127.0.0.1:${rpcPort}/`;
    this.cookieFile = join(datadir, 'regtest', '.cookie');
    this.zmqUrl = zmqPort === null ? null : `tcp://127.0.0.1:${zmqPort}`;
    this.rpc = this.client({ url: this.rpcUrl });
    this.wallet = this.client({ url: `${this.rpcUrl}wallet/${WALLET}` });
    this.node = new NodeClient(this.rpc);
  }

  static async start(coin: RegtestCoin, binary: string, opts: RegtestNodeOptions): Promise<RegtestNode> {
    // A port chosen free can be taken by a concurrently starting test before the node binds it: choose again.
    for (let attempt = 1; ; attempt++) {
      try {
        return await RegtestNode.startOnce(coin, binary, opts);
      } catch (err) {
        const portTaken = err instanceof Error && /Unable to bind|Failed to bind|Failed to listen|Unable to start HTTP server|Address already in use/.test(err.message);
        if (!portTaken || attempt === 3) throw err;
      }
    }
  }

  private static async startOnce(coin: RegtestCoin, binary: string, opts: RegtestNodeOptions): Promise<RegtestNode> {
    const datadir = await mkdtemp(join(tmpdir(), `outpoint-${coin.toLowerCase()}-`));
    const [rpcPort, p2pPort, zmqPort] = await freePorts(coin === 'BTC' ? 3 : 2);
    const password = randomBytes(16).toString('hex');
    const zmq = coin === 'BTC' ? `tcp://127.0.0.1:${zmqPort}` : null;
    const args = [
      `-datadir=${datadir}`,
      '-regtest', '-server', '-txindex=1', '-fallbackfee=0.0002',
      '-listen=1', '-bind=127.0.0.1', `-port=${p2pPort}`, '-listenonion=0', '-dnsseed=0', '-discover=0',
      '-rpcbind=127.0.0.1', '-rpcallowip=127.0.0.1', `-rpcport=${rpcPort}`, rpcAuthArg(RPC_USER, password),
      ...(opts.whitelist === false ? [] : ['-whitelist=127.0.0.1']), '-printtoconsole=0', '-keypool=10',
      // a tiny mempool persistence would replay txs across restarts in tests that do not expect it
      '-persistmempool=0',
      ...(zmq ? ['hashblock', 'hashtx', 'rawtx', 'sequence'].map((topic) => `-zmqpub${topic}=${zmq}`) : []),
      ...(opts.extraArgs ?? []),
    ];
    const node = new RegtestNode(coin, binary, datadir, rpcPort!, p2pPort!, zmq ? zmqPort! : null, password, args);
    live.add(node);
    try {
      await node.resume();
      if (opts.funded || opts.wallet !== false) await node.createWallet(WALLET);
      if (opts.funded) await node.mine(101);
    } catch (err) {
      await node.stop();
      throw err;
    }
    return node;
  }

  /** An extra RpcClient closed with the node (e.g. cookie auth, short timeouts). */
  client(options: ConstructorParameters<typeof RpcClient>[0]): RpcClient {
    const client = new RpcClient({ retries: 0, timeoutMs: 60_000, ...options });
    this.#clients.push(client);
    return client;
  }

  /** Creates (and loads at every restart) a wallet; returns a client scoped to it. */
  async createWallet(name: string): Promise<RpcClient> {
    const descriptors = this.coin === 'BTC';
    await this.rpc.call('createwallet', [name, false, false, '', false, descriptors, true]);
    return name === WALLET ? this.wallet : this.client({ url: `${this.rpcUrl}wallet/${name}` });
  }

  async newAddress(type: AddressType = 'bech32'): Promise<string> {
    return this.wallet.call<string>('getnewaddress', ['', type]);
  }

  /** Mines `n` blocks to `address` (default a fresh wallet address: regtest rebuilds identical blocks otherwise). */
  async mine(n: number, address?: string): Promise<string[]> {
    const to = address ?? (await this.newAddress('bech32'));
    const hashes = await this.rpc.call<string[]>('generatetoaddress', [n, to]);
    // Wallets learn of blocks through the node's validation queue, after generatetoaddress returns: without this wait
    // a wallet can still see its new coins as unconfirmed and refuse to spend them ("Insufficient funds", seen in CI).
    await this.rpc.call('syncwithvalidationinterfacequeue', []);
    return hashes;
  }

  /** Wallet send; the amount stays a decimal string end to end (Core accepts strings). */
  async send(address: string, amountCoins: string): Promise<string> {
    return this.wallet.call<string>('sendtoaddress', [address, amountCoins]);
  }

  waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs = 10_000, what?: string): Promise<void> {
    return waitFor(predicate, timeoutMs, what);
  }

  /** Connects to `other` over P2P (both whitelist loopback, so txs relay at once). */
  async connect(other: RegtestNode): Promise<void> {
    await this.rpc.call('addnode', [`127.0.0.1:${other.p2pPort}`, 'onetry']);
    const peers = async (n: RegtestNode): Promise<boolean> => (await n.rpc.call<number>('getconnectioncount')) > 0;
    await waitFor(async () => (await peers(this)) && (await peers(other)), 10_000, 'P2P connection');
  }

  get pid(): number | null {
    return this.#process?.pid ?? null;
  }

  /** Spawns the daemon on the same datadir and ports and waits until RPC answers (past -28 warm-up). */
  async resume(): Promise<void> {
    if (this.#process) throw new Error('node already running');
    this.#stderr = '';
    const child = spawn(this.binary, this.args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.#process = child;
    let exitCode: number | null | undefined;
    this.#exited = new Promise<void>((resolve) => {
      child.once('exit', (code) => {
        exitCode = code;
        if (this.#process === child) this.#process = null;
        resolve();
      });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr += chunk.toString();
    });
    const probe = new RpcClient({ url: this.rpcUrl, retries: 0, timeoutMs: 2_000 });
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (exitCode !== undefined) {
          throw new Error(`${this.coin} node exited with code ${exitCode} at start: ${this.#stderr.trim()}\n${await this.debugLogTail()}`);
        }
        try {
          await probe.call('getblockcount');
          return;
        } catch {
          if (Date.now() > deadline) throw new Error(`${this.coin} node RPC not ready after 60 s`);
          await delay(50);
        }
      }
    } finally {
      probe.close();
    }
  }

  /**
   * Clean shutdown (RPC stop), keeping the datadir for resume(). SIGKILL if it takes over 30 s.
   * Close any RpcClient you made yourself first, or the node waits out its idle sockets.
   */
  async halt(): Promise<void> {
    const child = this.#process;
    if (!child) return;
    try {
      await this.rpc.call('stop');
    } catch {
      child.kill('SIGTERM');
    }
    // litecoind 0.21's shutdown waits for idle keep-alive connections (up to -rpcservertimeout,
    // 30 s): drop ours. Clients made outside the harness must be closed by their owners.
    for (const client of this.#clients) client.close();
    const giveUp = new AbortController();
    const stopped = await Promise.race([
      this.#exited.then(() => true),
      delay(30_000, false, { signal: giveUp.signal }).catch(() => false),
    ]);
    giveUp.abort();
    if (!stopped) {
      child.kill('SIGKILL');
      await this.#exited;
    }
  }

  /** Crash: SIGKILL, keeping the datadir (resume() recovers, stop() cleans up). */
  async kill9(): Promise<void> {
    const child = this.#process;
    if (!child) return;
    child.kill('SIGKILL');
    await this.#exited;
  }

  /** Stops the node for good and removes its datadir. */
  async stop(): Promise<void> {
    await this.halt();
    for (const client of this.#clients) client.close();
    await rm(this.datadir, { recursive: true, force: true });
    live.delete(this);
  }

  async debugLogTail(lines = 30): Promise<string> {
    try {
      const text = await readFile(join(this.datadir, 'regtest', 'debug.log'), 'utf8');
      return text.trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no debug.log)';
    }
  }

  /** process 'exit' hook: synchronous only. */
  forceCleanupSync(): void {
    this.#process?.kill('SIGKILL');
    rmSync(this.datadir, { recursive: true, force: true });
  }
}
