/**
 * The wallet-sync pattern of the Electrum bench (issue 49), as a wallet does it on connecting: subscribe every one of
 * its scripthashes (1,000), ask the history of each that has one, then fetch every tx of those histories
 * (blockchain.transaction.get, as Electrum does for txs it has not stored yet). `wallets` such wallets run at once,
 * each on its own connection with up to `window` requests in flight (Electrum pipelines its requests). In its own
 * process, like bench/electrum-load.ts.
 *
 *   measureWalletSyncInChild({ host, port, scripthashes, wallets, window, maxTxs }) → requests, seconds, per wallet
 */
import { fileURLToPath } from 'node:url';
import { measureInChildScript } from './child-measure.js';
import { ElectrumClient } from './electrum-client.js';

export interface WalletSyncRequest {
  readonly host: string;
  readonly port: number;
  readonly scripthashes: readonly string[];
  readonly wallets: number;
  readonly window: number;
  /** At most this many txs fetched per wallet. */
  readonly maxTxs: number;
}

export interface WalletSyncResult {
  readonly requests: number;
  readonly seconds: number;
  /** Each wallet's sync, start to end. */
  readonly walletSeconds: readonly number[];
  readonly histories: number;
  readonly txs: number;
  readonly failed: number;
  readonly clientCpuMicros: number;
}

const SELF = fileURLToPath(import.meta.url);

export function measureWalletSyncInChild(request: WalletSyncRequest): Promise<WalletSyncResult> {
  return measureInChildScript<WalletSyncResult>(SELF, request, 'wallet sync client');
}

/** Runs `calls` with at most `window` in flight; the answers in order (undefined for a failed call). */
async function windowed<T>(calls: readonly (() => Promise<T>)[], window: number, onFail: () => void): Promise<(T | undefined)[]> {
  const out: (T | undefined)[] = new Array(calls.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < calls.length; i = next++) out[i] = await calls[i]!().catch(() => (onFail(), undefined));
  };
  await Promise.all(Array.from({ length: Math.min(window, calls.length) }, lane));
  return out;
}

export async function runWalletSync(request: WalletSyncRequest): Promise<WalletSyncResult> {
  let failed = 0;
  let requests = 0;
  let histories = 0;
  let txs = 0;
  const fail = (): void => void failed++;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const walletSeconds = await Promise.all(Array.from({ length: request.wallets }, async (_, w) => {
    const client = await ElectrumClient.connect(request.host, request.port);
    const begin = performance.now();
    try {
      await client.request('server.version', [`wallet-${w}`, '1.4']);
      // Each wallet its own order of the same addresses (a server may not rely on the order seen before).
      const hashes = request.scripthashes.map((_, i) => request.scripthashes[(i * (2 * w + 1)) % request.scripthashes.length]!);
      const statuses = await windowed(hashes.map((h) => () => client.request<string | null>('blockchain.scripthash.subscribe', [h])), request.window, fail);
      const used = hashes.filter((_, i) => statuses[i]);
      const lists = await windowed(used.map((h) => () => client.request<{ tx_hash: string }[]>('blockchain.scripthash.get_history', [h])), request.window, fail);
      const txids = [...new Set(lists.flatMap((l) => (l ?? []).map((i) => i.tx_hash)))].slice(0, request.maxTxs);
      await windowed(txids.map((t) => () => client.request<string>('blockchain.transaction.get', [t])), request.window, fail);
      requests += 1 + hashes.length + used.length + txids.length;
      histories += used.length;
      txs += txids.length;
      return (performance.now() - begin) / 1000;
    } finally {
      client.close();
    }
  }));
  const used = process.cpuUsage(cpu);
  return { requests, seconds: (performance.now() - started) / 1000, walletSeconds, histories, txs, failed, clientCpuMicros: used.user + used.system };
}

async function childMain(): Promise<void> {
  let input = '';
  for await (const chunk of process.stdin) input += String(chunk);
  const result = await runWalletSync(JSON.parse(input) as WalletSyncRequest);
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

if (process.argv[2] === '--child') await childMain();
