import { statSync } from 'node:fs';
import { ConfigError, NETWORK_IDS, type NetworkId } from '../../core/index.js';
import { exportSnapshot } from '../../store/common/dump/snapshot-export.js';
import { importSnapshot, readSnapshotHeader } from '../../store/common/dump/snapshot-import.js';
import type { Command } from '../cli/command.js';
import { configFromOptions, configOptions } from '../cli/config-option.js';
import { withDump } from '../stores/open-dump.js';
import { openStore } from '../stores/open-store.js';
import { checkSnapshotTip } from './snapshot-node-check.js';

export const snapshotCommand: Command = {
  name: 'snapshot',
  summary: 'export or import one network\'s chain index (seed a new store or replica)',
  help: `outpoint snapshot export --network N FILE [--config FILE]
outpoint snapshot import FILE [--no-node-check] [--config FILE]

export  writes network N's chain index at its tip to FILE (a consistent state: safe
        while serve or index runs), with a manifest of row counts and SHA-256 digests.
        The mempool is not included: it is read from the node again on start.
import  creates the configured store if needed and loads FILE into it. Refused unless
        that network's chain index is empty, unless every digest matches (a corrupt or
        truncated file loads nothing), and unless the configured node has the snapshot's
        tip block at its height (--no-node-check skips this, e.g. before the node is up).
        Then \`outpoint serve\` or \`index\` follows the node from the snapshot's tip.
Either engine to either: a SQLite snapshot can seed PostgreSQL and back. See docs/snapshots.md.
`,
  options: { ...configOptions, network: { type: 'string' }, 'no-node-check': { type: 'boolean' } },
  async run(options, positionals) {
    const [action, file, ...extra] = positionals;
    if (!file || extra.length > 0 || (action !== 'export' && action !== 'import')) throw new ConfigError('usage: outpoint snapshot export --network N FILE | outpoint snapshot import FILE');
    const config = configFromOptions(options);
    const started = Date.now();
    if (action === 'export') {
      const network = String(options['network'] ?? '').toUpperCase();
      if (!(NETWORK_IDS as readonly string[]).includes(network)) throw new ConfigError(`--network must be one of ${NETWORK_IDS.join(', ')}`);
      const { header, manifest } = await withDump(config.store.url, (engine) => exportSnapshot(engine, network as NetworkId, file));
      const rows = manifest.tables.map((t) => `${t.table} ${t.rows}`).join(', ');
      process.stdout.write(`snapshot of ${header.network} at height ${header.tip.height} (${header.tip.hash}) written to ${file}: ` +
        `${statSync(file).size} bytes in ${((Date.now() - started) / 1000).toFixed(1)} s (${rows})\n`);
      return 0;
    }
    const header = await readSnapshotHeader(file);
    if (options['no-node-check'] !== true) await checkSnapshotTip(config, header);
    const store = openStore(config.store.url);
    try {
      await store.migrate();
    } finally {
      await store.close();
    }
    const { tables } = await withDump(config.store.url, (engine) => importSnapshot(engine, file));
    process.stdout.write(`loaded ${header.network} at height ${header.tip.height} (${header.tip.hash}) in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
      `(${tables.map((t) => `${t.table} ${t.rows}`).join(', ')}); digests verified\n`);
    return 0;
  },
};
