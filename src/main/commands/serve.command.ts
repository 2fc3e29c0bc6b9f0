import type { Command } from '../cli/command.js';
import { configFromOptions, configOptions } from '../cli/config-option.js';
import { createLogger } from '../logging/logger.js';
import { untilSignal } from '../cli/run-until-signal.js';
import { Runtime } from '../wiring/runtime.js';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the indexers and the APIs',
  help: `outpoint serve [--config FILE] [--api-only] [--bulk]

Runs one indexer per configured network and the service's APIs on [http] host:port.
--api-only serves the APIs without indexing: extra API replicas of a PostgreSQL
deployment, while one \`outpoint serve\` or \`outpoint index\` process writes.
--bulk loads every network as an initial sync even if its index is not empty
(its chain endpoints answer 503 "index is syncing" until it reaches the node's tip).
`,
  options: { ...configOptions, 'api-only': { type: 'boolean' }, bulk: { type: 'boolean' } },
  async run(options) {
    const config = configFromOptions(options);
    const logger = createLogger({ level: config.log.level, format: config.log.format, walletKeys: config.log.walletKeys });
    const runtime = await Runtime.create(config, logger, { indexers: options['api-only'] !== true, bulk: options['bulk'] === true });
    await runtime.start();
    const signal = await untilSignal();
    logger.info('stopping', { signal });
    await runtime.stop();
    return 0;
  },
};
