import type { Command } from '../cli/command.js';
import { configFromOptions, configOptions } from '../cli/config-option.js';
import { createLogger } from '../logging/logger.js';
import { untilSignal } from '../cli/run-until-signal.js';
import { Runtime } from '../wiring/runtime.js';

export const indexCommand: Command = {
  name: 'index',
  summary: 'run the indexers only (no APIs)',
  help: `outpoint index [--config FILE] [--bulk]

Follows every configured network's node ([networks.<ACRONYM>]) into the store:
initial sync, then new blocks, reorgs and the mempool. Stops cleanly on SIGINT/SIGTERM;
after any stop (even kill -9) it resumes from the last committed block.
--bulk loads every network as an initial sync even if its index is not empty
(API processes answer 503 "index is syncing" for it until it reaches the node's tip).
`,
  options: { ...configOptions, bulk: { type: 'boolean' } },
  async run(options) {
    const config = configFromOptions(options);
    const logger = createLogger({ level: config.log.level, format: config.log.format, walletKeys: config.log.walletKeys });
    if (config.networks.length === 0) {
      logger.error('no networks configured: add a [networks.<ACRONYM>] table with rpc_url (see README)');
      return 2;
    }
    const runtime = await Runtime.create(config, logger, { http: false, bulk: options['bulk'] === true });
    await runtime.start();
    const signal = await untilSignal();
    logger.info('stopping', { signal });
    await runtime.stop();
    return 0;
  },
};
