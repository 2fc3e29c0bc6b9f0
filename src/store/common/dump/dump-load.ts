/**
 * Loads the tables of an open dump into a write transaction: the file must hold exactly the expected tables, in
 * order, with the expected columns (else it is from another schema version), and every table's rows must match the
 * manifest's count and digest (DumpReader.verify) before the caller commits.
 */
import type { DumpSink } from './dump-engine.js';
import { DumpError, type DumpManifest } from './dump-format.js';
import type { DumpReader } from './dump-reader.js';
import type { DumpTable } from './dump-rows.js';

const BATCH = 5_000;

export interface LoadedTable {
  readonly table: string;
  readonly rows: number;
}

export async function loadTables(reader: DumpReader, sink: DumpSink, expected: readonly DumpTable[], file: string): Promise<{ manifest: DumpManifest; tables: LoadedTable[] }> {
  const loaded: LoadedTable[] = [];
  for (const table of expected) {
    const start = await reader.nextTable();
    const want = JSON.stringify(table.columns);
    if (!start || start.table !== table.name || JSON.stringify(start.columns) !== want) {
      throw new DumpError(`${file} does not hold the tables this version expects (found ${start ? start.table : 'the end'} where ${table.name} ` +
        'belongs, or other columns): it was written by another schema version');
    }
    let rows = 0;
    for (;;) {
      const batch = await reader.rows(BATCH);
      if (batch.length === 0) break;
      try {
        await sink.insert(table, batch);
      } catch (err) {
        throw await corruptionBehind(reader, err);
      }
      rows += batch.length;
    }
    await sink.syncIdentity(table);
    loaded.push({ table: table.name, rows });
  }
  if ((await reader.nextTable()) !== null) throw new DumpError(`${file} holds more tables than this version expects`);
  return { manifest: await reader.verify(), tables: loaded };
}

/**
 * A row the store refuses (a duplicate key, say) may come from a corrupt file: a flipped bit inside the gzip stream
 * can inflate to rows that look whole, and the stream's CRC and the digests are only checked at its end. So the file is
 * read on to its end and checked: its corruption is what is reported; an intact file's refusal is the store's error.
 */
async function corruptionBehind(reader: DumpReader, refused: unknown): Promise<unknown> {
  try {
    do {
      while ((await reader.rows(BATCH)).length > 0);
    } while ((await reader.nextTable()) !== null);
    await reader.verify();
  } catch (err) {
    if (err instanceof DumpError) return err;
  }
  return refused;
}
