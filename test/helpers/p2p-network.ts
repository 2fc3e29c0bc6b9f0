/**
 * A small regtest P2P network for the listener's tests: litecoind (or bitcoind) nodes on loopback wired into a
 * chosen topology (and cut apart again), plus Outpoint itself in-process (Runtime) indexing one node and listening to
 * some of them. Everything is removed again by `stop`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { parseCoins, formatCoins, silentLogger, type Logger } from '../../src/core/index.js';
import { Runtime } from '../../src/main/wiring/runtime.js';
import { waitFor, type RegtestNode } from './regtest-node.js';

export const p2pAddress = (node: RegtestNode): string => `127.0.0.1:${node.p2pPort}`;

async function peersOf(node: RegtestNode): Promise<{ addr: string; addrbind?: string; inbound: boolean }[]> {
  return node.rpc.call('getpeerinfo');
}

/** True when `a` has a connection to or from `b`. */
async function linked(a: RegtestNode, b: RegtestNode): Promise<boolean> {
  const port = `:${b.p2pPort}`;
  const peersA = await peersOf(a);
  if (peersA.some((p) => p.addr.endsWith(port))) return true;
  // An inbound connection from b shows b's ephemeral port on a; look from b's side instead.
  return (await peersOf(b)).some((p) => p.addr.endsWith(`:${a.p2pPort}`));
}

/**
 * Gives fresh nodes `from`'s whole chain over RPC (submitblock, in order), so a topology starts at one tip. Left to
 * P2P, a fresh node syncs in initial block download, and a peer that is itself still in it ignores its getheaders:
 * across several hops the chain then arrived late or, once in a full suite, not within a minute.
 */
export async function copyChain(from: RegtestNode, to: readonly RegtestNode[]): Promise<void> {
  const height = await from.rpc.call<number>('getblockcount');
  const heights = Array.from({ length: height }, (_, i) => i + 1);
  const hashes = await from.rpc.batch<string>(heights.map((h) => ({ method: 'getblockhash', params: [h] })));
  const blocks = await from.rpc.batch<string>(hashes.map((hash) => {
    if (hash instanceof Error) throw hash;
    return { method: 'getblock', params: [hash, 0] };
  }));
  for (const node of to) {
    for (const block of blocks) {
      if (block instanceof Error) throw block;
      // null: accepted; "duplicate": the node has it already.
      const result = await node.rpc.call<string | null>('submitblock', [block]);
      if (result !== null && result !== 'duplicate') throw new Error(`submitblock refused a block of the copied chain: ${result}`);
    }
  }
}

/** a dials b once (no automatic reconnection: a partition stays cut). */
export async function link(a: RegtestNode, b: RegtestNode): Promise<void> {
  await a.rpc.call('addnode', [p2pAddress(b), 'onetry']);
  await waitFor(() => linked(a, b), 10_000, `P2P link ${a.p2pPort}→${b.p2pPort}`);
}

/** Cuts the connection between a and b, whichever side dialled. */
export async function unlink(a: RegtestNode, b: RegtestNode): Promise<void> {
  for (const [from, to] of [[a, b], [b, a]] as const) {
    try {
      await from.rpc.call('disconnectnode', [p2pAddress(to)]);
    } catch {
      // not the side that dialled
    }
  }
  await waitFor(async () => !(await linked(a, b)), 10_000, `P2P link ${a.p2pPort}×${b.p2pPort} cut`);
}

/** Every node at the same tip as the first. */
export async function sameTip(nodes: readonly RegtestNode[], timeoutMs = 20_000): Promise<void> {
  await waitFor(async () => new Set(await Promise.all(nodes.map((n) => n.rpc.call<string>('getbestblockhash')))).size === 1, timeoutMs, 'nodes at one tip');
}

/** A wallet-signed spend of `utxo` paying `to` its value minus `fee` (base units); not broadcast. */
export async function signedSpend(
  wallet: RegtestNode,
  utxo: { txid: string; vout: number; amount: string },
  to: string,
  fee: bigint,
  options: { replaceable?: boolean } = {},
): Promise<{ txid: string; hex: string }> {
  const inputs = [{ txid: utxo.txid, vout: utxo.vout, ...(options.replaceable ? { sequence: 0xfffffffd } : {}) }];
  const raw = await wallet.wallet.call<string>('createrawtransaction', [inputs, { [to]: formatCoins(parseCoins(utxo.amount) - fee) }]);
  const signed = await wallet.wallet.call<{ hex: string; complete: boolean }>('signrawtransactionwithwallet', [raw]);
  if (!signed.complete) throw new Error('spend not signed');
  const { txid } = await wallet.rpc.call<{ txid: string }>('decoderawtransaction', [signed.hex]);
  return { txid, hex: signed.hex };
}

/** A confirmed wallet output of at least `min` coins (amount as a decimal string, exactly as the node wrote it). */
export async function walletUtxo(node: RegtestNode, min = '1'): Promise<{ txid: string; vout: number; amount: string }> {
  const utxos = await node.wallet.call<{ txid: string; vout: number; amount: number; confirmations: number }[]>('listunspent', [1], { exactDecimals: true });
  const found = utxos.find((u) => parseCoins(String(u.amount)) >= parseCoins(min));
  if (!found) throw new Error('no wallet output large enough');
  return { txid: found.txid, vout: found.vout, amount: String(found.amount) };
}

export interface ServedOutpoint {
  readonly runtime: Runtime;
  readonly url: string;
  get<T = { status: string; data: Record<string, unknown> }>(path: string): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

/** `outpoint serve` in-process on a fresh SQLite store: one network indexing `node`, listening to `peers`. */
export async function serveOutpoint(
  network: string,
  node: RegtestNode,
  peers: readonly RegtestNode[],
  extraEnv: Record<string, string> = {},
  logger: Logger = silentLogger,
): Promise<ServedOutpoint> {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpoint-p2p-'));
  const net = (key: string): string => `OUTPOINT_NETWORKS_${network}_${key}`;
  const config = loadConfig({
    env: {
      OUTPOINT_DATA_DIR: dataDir, OUTPOINT_HTTP_PORT: '0', OUTPOINT_HTTP_RATE_LIMIT_PER_SECOND: '0', OUTPOINT_MARKET_SOURCES: '',
      [net('CHAIN')]: 'regtest', [net('RPC_URL')]: node.rpcUrl, [net('POLL_MS')]: '100', [net('P2P_PEERS')]: peers.map(p2pAddress).join(','),
      ...(node.zmqUrl ? { [net('ZMQ_URL')]: node.zmqUrl } : {}),
      ...extraEnv,
    },
  });
  const runtime = await Runtime.create(config, logger);
  try {
    await runtime.start();
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const url = runtime.publicUrl;
  return {
    runtime,
    url,
    async get<T>(path: string) {
      const response = await fetch(`${url}${path}`);
      return { status: response.status, body: (await response.json()) as T };
    },
    async stop() {
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
