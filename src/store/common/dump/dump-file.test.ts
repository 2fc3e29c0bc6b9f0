import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DumpReader } from './dump-reader.js';
import { columns, type DumpTable, type DumpValue } from './dump-rows.js';
import { DumpWriter } from './dump-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'outpoint-dump-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const table: DumpTable = { name: 't', orderBy: 'a', columns: columns('a int, b total, c blob, d text') };
const rows: DumpValue[][] = [
  [0n, 2n ** 64n + 5n, Buffer.alloc(0), ''],
  [-(2n ** 63n), -(2n ** 70n), Buffer.from([0, 255, 7]), 'Ünïcode ✓'],
  [2n ** 63n - 1n, null, null, null],
];

async function* each(list: DumpValue[][]): AsyncIterable<DumpValue[][]> {
  yield list.slice(0, 1);
  yield list.slice(1);
}

async function write(file: string, list: DumpValue[][]): Promise<string> {
  const writer = new DumpWriter(file);
  await writer.header({ kind: 'test' });
  const digest = await writer.table(table, each(list));
  await writer.finish({ kind: 'backup', created_at: 'now' });
  return digest.sha256;
}

async function readAll(file: string): Promise<DumpValue[][]> {
  const reader = new DumpReader(file);
  try {
    await reader.header();
    const out: DumpValue[][] = [];
    while (await reader.nextTable()) for (let page = await reader.rows(2); page.length > 0; page = await reader.rows(2)) out.push(...page);
    await reader.verify();
    return out;
  } finally {
    reader.close();
  }
}

describe('dump files', () => {
  it('round-trip integers past 64 bits, nulls, empty and binary values exactly, and leave no partial file', async () => {
    const file = join(dir, 'a.dump');
    await write(file, rows);
    assert.deepEqual(await readAll(file), rows);
    assert.equal(existsSync(`${file}.partial`), false);
  });

  it('give the same digest for the same rows and another for other rows', async () => {
    const same = await write(join(dir, 'b.dump'), rows);
    assert.equal(await write(join(dir, 'c.dump'), rows.map((r) => [...r])), same);
    assert.notEqual(await write(join(dir, 'd.dump'), rows.slice(0, 2)), same);
  });

  it('refuse a changed value that is still well-formed', async () => {
    const file = join(dir, 'e.dump');
    await write(file, [[1n, 1n, Buffer.from('abcdef'), 'x']]);
    const raw = gunzipSync(readFileSync(file));
    const at = raw.indexOf(Buffer.from('abcdef'));
    raw[at] = 'z'.charCodeAt(0);
    writeFileSync(file, gzipSync(raw));
    await assert.rejects(readAll(file), /corrupt or truncated \(table t's rows do not match the manifest's SHA-256\)/);
  });
});
