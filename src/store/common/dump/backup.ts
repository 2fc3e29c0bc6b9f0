/**
 * `outpoint backup` / `outpoint restore`: the tables a node cannot give back (BACKUP_TABLES: accounts, keys, plans,
 * usage, sessions, invites, sign-in data, short addresses, prices), read in one transaction while the service runs,
 * and restored in one transaction into a store that has none of them yet — or, with `force`, replacing them.
 * docs/snapshots.md.
 */
import { StoreError } from '../../../core/domain/errors.js';
import { any, type DumpEngine } from './dump-engine.js';
import { DumpError, type DumpManifest } from './dump-format.js';
import { loadTables, type LoadedTable } from './dump-load.js';
import { DumpReader } from './dump-reader.js';
import { DumpWriter } from './dump-writer.js';
import { BACKUP_TABLES } from './snapshot-tables.js';

export interface BackupHeader {
  readonly kind: 'backup';
  readonly schema_version: number;
  readonly source_engine: string;
  readonly created_at: string;
}

/** Tables whose rows a fresh store already has (the `free` plan of the migrations): replaced without --force. */
const SEEDED = new Set(['plans']);

export async function backup(engine: DumpEngine, file: string): Promise<{ header: BackupHeader; manifest: DumpManifest }> {
  return engine.read(async (src) => {
    const version = await src.all("SELECT value FROM meta WHERE key = 'schema_version'");
    const header: BackupHeader = { kind: 'backup', schema_version: Number(version[0]?.value), source_engine: engine.engine, created_at: new Date().toISOString() };
    const writer = new DumpWriter(file);
    try {
      await writer.header(header);
      for (const table of BACKUP_TABLES) await writer.table(table, src.rows(table));
      return { header, manifest: await writer.finish({ kind: 'backup', created_at: header.created_at }) };
    } catch (err) {
      await writer.abort();
      throw err;
    }
  });
}

export async function restore(engine: DumpEngine, file: string, force: boolean): Promise<{ header: BackupHeader; tables: LoadedTable[] }> {
  const reader = new DumpReader(file);
  try {
    const header = await reader.header<BackupHeader>();
    if (header.kind !== 'backup') throw new DumpError(`${file} is not a backup (a chain snapshot is loaded with \`outpoint snapshot import\`)`);
    return await engine.write(null, async (sink) => {
      const version = Number((await sink.all("SELECT value FROM meta WHERE key = 'schema_version'"))[0]?.value);
      if (version !== header.schema_version) {
        throw new StoreError(`the backup has schema version ${header.schema_version}, this store ${version}: restore it with the Outpoint version that wrote it`);
      }
      if (!force) {
        for (const table of BACKUP_TABLES) {
          if (!SEEDED.has(table.name) && (await any(sink, `SELECT 1 FROM ${table.name}`))) {
            throw new StoreError(`the store already has rows in ${table.name}: restore into a new store, or pass --force to replace its accounts, keys, ` +
              'usage, sessions, short addresses and prices with the backup\'s');
          }
        }
      }
      // Children first (foreign keys), then everything is loaded parents first.
      for (const table of [...BACKUP_TABLES].reverse()) await sink.exec(`DELETE FROM ${table.name}`);
      const { tables } = await loadTables(reader, sink, BACKUP_TABLES, file);
      return { header, tables };
    });
  } finally {
    reader.close();
  }
}
