/**
 * `outpoint serve`/`index` refuse at start a node that serves another chain than configured, for every coin
 * (a Litecoin node configured as DOGETEST, a Bitcoin regtest node configured as BTC main, a Dogecoin testnet
 * node configured as DOGE), with a message naming both chains; a node still starting is waited for.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { ConfigError, type Logger } from '../../src/core/index.js';
import { Runtime } from '../../src/main/wiring/runtime.js';
import { startDogecoinStandIn } from '../helpers/dogecoin/dogecoin-standin.js';
import { startBitcoind, startLitecoind } from '../helpers/regtest-node.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  return { lines, info: log('info'), warn: log('warn'), error: log('error') };
}

/** A Runtime indexing one network (no HTTP) on a fresh SQLite store; `env` adds OUTPOINT_NETWORKS_* keys. */
async function runtimeFor(network: string, env: Record<string, string>, logger: Logger): Promise<Runtime> {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpoint-identity-'));
  dirs.push(dataDir);
  const config = loadConfig({ env: { OUTPOINT_DATA_DIR: dataDir, ...Object.fromEntries(Object.entries(env).map(([k, v]) => [`OUTPOINT_NETWORKS_${network}_${k}`, v])) } });
  return Runtime.create(config, logger, { http: false });
}

async function refused(network: string, env: Record<string, string>, pattern: RegExp): Promise<void> {
  const runtime = await runtimeFor(network, env, recordingLogger());
  await assert.rejects(runtime.start(), (err) => {
    assert.ok(err instanceof ConfigError, String(err));
    assert.match(err.message, pattern);
    return true;
  });
  await runtime.stop(); // a failed start stopped everything already; stopping again is harmless
}

describe('start-up refuses a node serving another chain', () => {
  it('Dogecoin: a testnet node configured as main is refused; as DOGETEST test it is indexed', async () => {
    const node = await startDogecoinStandIn({ network: 'test', zmqTopics: [] });
    try {
      await refused('DOGE', { RPC_URL: node.rpcUrl }, /networks\.DOGE is configured as Dogecoin .* serves Dogecoin Testnet .*chain "test"/);
      const ok = await runtimeFor('DOGETEST', { RPC_URL: node.rpcUrl }, recordingLogger());
      await ok.start();
      await ok.stop();
    } finally {
      await node.stop();
    }
  });

  it('Litecoin: a litecoind regtest node configured as DOGETEST regtest is refused', async () => {
    const node = await startLitecoind({ wallet: false });
    try {
      await refused('DOGETEST', { CHAIN: 'regtest', RPC_URL: node.rpcUrl }, /configured as Dogecoin Regtest .* serves Litecoin Regtest .*Dogecoin Core node running Dogecoin Regtest \(-regtest\)/);
    } finally {
      await node.stop();
    }
  });

  it('Bitcoin: a bitcoind regtest node configured as BTC main is refused; as BTCTEST regtest it is indexed', async () => {
    const node = await startBitcoind({ wallet: false });
    try {
      await refused('BTC', { RPC_URL: node.rpcUrl }, /configured as Bitcoin \(genesis 000000000019d6.*\), but the node at http:\/\/\*\*\*@127\.0\.0\.1:\d+\/ serves Bitcoin Regtest/);
      const ok = await runtimeFor('BTCTEST', { CHAIN: 'regtest', RPC_URL: node.rpcUrl }, recordingLogger());
      await ok.start();
      await ok.stop();
    } finally {
      await node.stop();
    }
  });

  it('a node that is down or warming up is waited for, then checked', async () => {
    const node = await startDogecoinStandIn({ zmqTopics: [], warmupMs: 600 });
    await node.halt();
    try {
      const logger = recordingLogger();
      const runtime = await runtimeFor('DOGETEST', { CHAIN: 'regtest', RPC_URL: node.rpcUrl }, logger);
      const started = runtime.start();
      setTimeout(() => void node.resume({ waitWarm: false }), 1_000);
      await started;
      assert.ok(logger.lines.some((l) => l.startsWith('warn waiting for the node')), logger.lines.join('\n'));
      await runtime.stop();
    } finally {
      await node.stop();
    }
  });
});
