/**
 * What an attacker (or a careless tool) does to a snapshot file: rows edited and the digests recomputed, so the
 * file is well-formed and its manifest matches (rewriteSnapshot); or a gzip bomb whose first row claims gigabytes
 * (writeGzipBomb). For the tests of what `snapshot import` still refuses.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { DUMP_MAGIC, jsonFrame } from '../../src/store/common/dump/dump-format.js';
import { DumpReader } from '../../src/store/common/dump/dump-reader.js';
import type { DumpTable, DumpValue } from '../../src/store/common/dump/dump-rows.js';
import { DumpWriter } from '../../src/store/common/dump/dump-writer.js';
import type { SnapshotHeader } from '../../src/store/common/dump/snapshot-export.js';
import { snapshotTables } from '../../src/store/common/dump/snapshot-tables.js';

/** A row of `table` changed (or the same row returned), named by the table's short name: blocks, txs, outputs… */
export type RowEdit = (table: string, row: DumpValue[], columns: readonly string[]) => DumpValue[];

/** Copies a snapshot with every row passed through `edit`, writing fresh digests: the manifest matches the edits. */
export async function rewriteSnapshot(from: string, to: string, edit: RowEdit): Promise<void> {
  const reader = new DumpReader(from);
  const writer = new DumpWriter(to);
  try {
    const header = await reader.header<SnapshotHeader>();
    await writer.header(header);
    const tables = new Map(snapshotTables(header.network).map((t) => [t.name, t]));
    for (let start = await reader.nextTable(); start; start = await reader.nextTable()) {
      const table = tables.get(start.table)!;
      const short = table.name.replace(/_[a-z]+$/, '');
      const names = table.columns.map((c) => c.name);
      async function* pages(): AsyncIterable<DumpValue[][]> {
        for (let page = await reader.rows(5_000); page.length > 0; page = await reader.rows(5_000)) yield page.map((row) => edit(short, row, names));
      }
      await writer.table(table, pages());
    }
    await writer.finish({ kind: 'snapshot', created_at: new Date().toISOString() });
  } finally {
    reader.close();
  }
}

/**
 * A snapshot file of a few MB whose first block row claims 2 GiB and inflates to that many zero bytes: a reader that
 * believes the length buffers gigabytes before it finds anything wrong.
 */
export async function writeGzipBomb(path: string, header: SnapshotHeader, table: DumpTable): Promise<void> {
  const gzip = createGzip({ level: 1 });
  const out = gzip.pipe(createWriteStream(path));
  const write = async (chunk: Buffer): Promise<void> => {
    if (!gzip.write(chunk)) await once(gzip, 'drain');
  };
  await write(Buffer.concat([DUMP_MAGIC, jsonFrame(header), jsonFrame({ table: table.name, columns: table.columns })]));
  const claim = Buffer.alloc(4);
  claim.writeUInt32BE(2 ** 31 - 1);
  await write(claim);
  const zeros = Buffer.alloc(16 << 20);
  for (let written = 0; written < 2 ** 31; written += zeros.length) await write(zeros);
  gzip.end();
  await once(out, 'finish');
}
