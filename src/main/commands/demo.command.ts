import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../config/index.js';
import type { Command } from '../cli/command.js';
import { DemoNode } from './demo/demo-node.js';
import { TrafficGenerator } from './demo/traffic-generator.js';
import { createStderrLogger } from '../logging/logger.js';
import { untilSignal } from '../cli/run-until-signal.js';
import { Runtime } from '../wiring/runtime.js';

export const demoCommand: Command = {
  name: 'demo',
  summary: 'a live demo: regtest litecoind + traffic + outpoint serve (Ctrl-C stops all)',
  help: `outpoint demo [--port N]

Starts a throwaway litecoind -regtest (Debian package litecoind) in a temp dir, a traffic
generator (a block every 5 s, payments among legacy, p2sh-segwit and bech32 addresses,
some left unconfirmed) and the service on the embedded SQLite store, then prints URLs
to try. Ctrl-C stops everything it started and removes its temp files.
`,
  options: { port: { type: 'string', short: 'p' }, help: { type: 'boolean', short: 'h' } },
  async run(options) {
    const logger = createStderrLogger();
    const dataDir = mkdtempSync(join(tmpdir(), 'outpoint-demo-data-'));
    const node = await DemoNode.start();
    const traffic = new TrafficGenerator(node, logger);
    let runtime: Runtime | null = null;
    try {
      logger.info('demo node started; generating a funded chain');
      await traffic.prepare();
      const config = loadConfig({
        env: {
          OUTPOINT_DATA_DIR: dataDir,
          OUTPOINT_HTTP_PORT: typeof options['port'] === 'string' ? options['port'] : '3000',
          OUTPOINT_NETWORKS_LTCTEST_CHAIN: 'regtest',
          OUTPOINT_NETWORKS_LTCTEST_RPC_URL: node.rpcUrl,
          // The demo chain is a test network (its coin has no price) and must run offline: no exchange polling.
          OUTPOINT_MARKET_SOURCES: '',
          // The demo lets anyone make an account (a throwaway chain and store): try the dashboard at /dashboard.
          OUTPOINT_ACCOUNTS_REGISTRATION: 'open',
        },
      });
      runtime = await Runtime.create(config, logger);
      await runtime.start();
      traffic.start();
      const base = runtime.publicUrl;
      const [a, b] = traffic.addresses;
      process.stdout.write(`
Outpoint demo is running (network LTCTEST on a private regtest chain).
Open the explorer in a browser (live: a block every 5 s):
  ${base}/
  ${base}/ltctest/address/${a}
The APIs, for example:
  ${base}/api/v2/get_info/LTCTEST
  ${base}/api/v2/get_address_balance/LTCTEST/${a}
  ${base}/api/v2/get_tx_unspent/LTCTEST/${b}
  ${base}/api/v2/address/LTCTEST/${a}
  ${base}/api/v2/get_block/LTCTEST/1
  ${base}/api/v2/openapi.json
Account dashboard (sign up, make a v3 API key, watch its use):
  ${base}/dashboard/sign-up
Realtime (Pusher protocol, e.g. pusher-js with wsHost/wsPort of ${base}, key "${config.realtime.appKey}"):
  channels blockchain_update_ltctest, address_ltctest_${a}
Press Ctrl-C to stop.
`);
      await untilSignal();
      logger.info('stopping the demo');
    } finally {
      traffic.stop();
      await runtime?.stop();
      await node.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    return 0;
  },
};
