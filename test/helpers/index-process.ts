/** `outpoint index` for LTCTEST regtest as an operator runs it (bin/outpoint.js), configured through the environment. */
import { spawn, type ChildProcess } from 'node:child_process';

export function spawnIndexProcess(storeUrl: string, rpcUrl: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['bin/outpoint.js', 'index'], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: {
      ...process.env,
      OUTPOINT_STORE_URL: storeUrl,
      OUTPOINT_NETWORKS_LTCTEST_CHAIN: 'regtest',
      OUTPOINT_NETWORKS_LTCTEST_RPC_URL: rpcUrl,
      OUTPOINT_NETWORKS_LTCTEST_POLL_MS: '100',
      // Small batches: many commits, so kills land between and inside them.
      OUTPOINT_NETWORKS_LTCTEST_SYNC_BATCH_TXS: '40',
      // Tests never reach the internet: no exchange polling (prices are on by default).
      OUTPOINT_MARKET_SOURCES: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
