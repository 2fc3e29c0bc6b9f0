import { statSync } from 'node:fs';
import { ConfigError } from '../../core/index.js';
import { backup, restore } from '../../store/common/dump/backup.js';
import type { Command } from '../cli/command.js';
import { configFromOptions, configOptions } from '../cli/config-option.js';
import { withDump } from '../stores/open-dump.js';
import { openStore } from '../stores/open-store.js';

export const backupCommand: Command = {
  name: 'backup',
  summary: 'write accounts, keys, plans, usage, sessions, short addresses and prices to a file',
  help: `outpoint backup FILE [--config FILE]

Writes everything a node cannot give back (accounts, API keys, plans, usage counters,
sessions, invites, sign-in data, short addresses, price history) to FILE, from one
consistent state (safe while serving), with a manifest of row counts and SHA-256
digests. The chain index is not included: see \`outpoint snapshot\`. Keep the server
key ([accounts] secret key file) with it: two-factor secrets are sealed with it.
`,
  options: configOptions,
  async run(options, positionals) {
    const [file, ...extra] = positionals;
    if (!file || extra.length > 0) throw new ConfigError('usage: outpoint backup FILE');
    const config = configFromOptions(options);
    const { manifest } = await withDump(config.store.url, (engine) => backup(engine, file));
    process.stdout.write(`backup written to ${file} (${statSync(file).size} bytes: ${manifest.tables.map((t) => `${t.table} ${t.rows}`).join(', ')})\n`);
    return 0;
  },
};

export const restoreCommand: Command = {
  name: 'restore',
  summary: 'load a backup into the configured store',
  help: `outpoint restore FILE [--force] [--config FILE]

Creates the configured store if needed and loads a backup made by \`outpoint backup\`,
in one transaction, after checking every digest (a corrupt or truncated file loads
nothing). Refused when the store already has accounts, keys, usage, sessions, invites,
short addresses or prices, unless --force: then those are replaced by the backup's.
Stop the services that use the store first, or restart them after: API processes
cache keys for a few seconds.
`,
  options: { ...configOptions, force: { type: 'boolean' } },
  async run(options, positionals) {
    const [file, ...extra] = positionals;
    if (!file || extra.length > 0) throw new ConfigError('usage: outpoint restore FILE [--force]');
    const config = configFromOptions(options);
    const store = openStore(config.store.url);
    try {
      await store.migrate();
    } finally {
      await store.close();
    }
    const { tables } = await withDump(config.store.url, (engine) => restore(engine, file, options['force'] === true));
    process.stdout.write(`restored ${file} (${tables.map((t) => `${t.table} ${t.rows}`).join(', ')}); digests verified\n`);
    return 0;
  },
};
