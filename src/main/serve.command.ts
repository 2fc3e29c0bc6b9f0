import type { Command } from './command.js';
import { configFromOptions, configOptions } from './config-option.js';
import { createStderrLogger } from './logger.js';
import { untilSignal } from './run-until-signal.js';
import { Runtime } from './runtime.js';

export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the indexers and the APIs',
  help: `outpoint serve [--config FILE]

Runs one indexer per configured network and the service's APIs on [http] host:port.
`,
  options: configOptions,
  async run(options) {
    const config = configFromOptions(options);
    const logger = createStderrLogger();
    const runtime = new Runtime(config, logger);
    await runtime.startIndexers();
    const signal = await untilSignal();
    logger.info('stopping', { signal });
    await runtime.stop();
    return 0;
  },
};
