import type { Command } from '../cli/command.js';
import { configFromOptions, configOptions } from '../cli/config-option.js';
import { openStore } from '../stores/open-store.js';

export const migrateCommand: Command = {
  name: 'migrate',
  summary: 'create or upgrade the store schema',
  help: `outpoint migrate [--config FILE]

Creates the schema in the configured store ([store] url) or upgrades it to this
version's schema. A store written by a newer Outpoint is refused, not touched.
`,
  options: configOptions,
  async run(options) {
    const config = configFromOptions(options);
    const store = openStore(config.store.url);
    try {
      const before = await store.schemaVersion();
      await store.migrate();
      const after = await store.schemaVersion();
      process.stdout.write(before === after ? `schema is current (version ${after})\n` : `schema migrated from version ${before} to ${after}\n`);
      return 0;
    } finally {
      await store.close();
    }
  },
};
