import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { DumpSink } from './dump-engine.js';
import { DumpError } from './dump-format.js';
import { loadTables } from './dump-load.js';
import { DumpReader } from './dump-reader.js';
import { columns, type DumpTable, type DumpValue } from './dump-rows.js';
import { DumpWriter } from './dump-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'outpoint-dump-load-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const first: DumpTable = { name: 'a', orderBy: 'k', columns: columns('k int, v text') };
const second: DumpTable = { name: 'b', orderBy: 'k', columns: columns('k int') };
const rowsOf = (n: number, text: boolean): DumpValue[][] => Array.from({ length: n }, (_, i) => (text ? [BigInt(i), `row ${i}`] : [BigInt(i)]));

async function* pages(list: DumpValue[][]): AsyncIterable<DumpValue[][]> {
  yield list;
}

async function dumpFile(name: string): Promise<string> {
  const file = join(dir, name);
  const writer = new DumpWriter(file);
  await writer.header({ kind: 'test' });
  await writer.table(first, pages(rowsOf(50, true)));
  await writer.table(second, pages(rowsOf(20, false)));
  await writer.finish({ kind: 'backup', created_at: 'now' });
  return file;
}

/** A sink that refuses the first insert, as a store refuses a duplicate key. */
function refusingSink(): DumpSink {
  return {
    exec: async () => undefined,
    insert: async () => { throw new Error('UNIQUE constraint failed: a.k'); },
    syncIdentity: async () => undefined,
  } as unknown as DumpSink;
}

async function load(file: string): Promise<unknown> {
  const reader = new DumpReader(file);
  try {
    await reader.header();
    await loadTables(reader, refusingSink(), [first, second], file);
    return null;
  } catch (err) {
    return err;
  } finally {
    reader.close();
  }
}

describe('loading a dump', () => {
  it('reports a changed file as corrupt even when the store refused one of its rows first', async () => {
    const file = await dumpFile('changed.dump');
    const inflated = gunzipSync(readFileSync(file));
    // A byte of a row of the first table: a valid gzip stream of other content, which only the digests tell.
    const at = inflated.indexOf(Buffer.from('row 7'));
    assert.ok(at > 0);
    inflated[at + 4] = '8'.charCodeAt(0);
    writeFileSync(file, gzipSync(inflated));
    const err = await load(file);
    assert.ok(err instanceof DumpError, String(err));
    assert.match(err.message, /is corrupt or truncated \(table a's rows do not match the manifest's SHA-256\); nothing was loaded/);
  });

  it("gives the store's refusal when the file is intact", async () => {
    const err = await load(await dumpFile('intact.dump'));
    assert.ok(err instanceof Error && !(err instanceof DumpError), String(err));
    assert.match(err.message, /UNIQUE constraint failed/);
  });
});
