/** bin/compiled.js: the compiled build runs only while it is at least as new as every source it is made from. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error plain JavaScript module without types (bin/ runs before any TypeScript loader)
import { compiledEntry, newestSource, stampOf } from '../../bin/compiled.js';

type Entry = (root: string) => string | null;

test('the compiled entry is used when current, not when a source is newer, missing, or switched off', () => {
  const root = mkdtempSync(join(tmpdir(), 'outpoint-compiled-'));
  try {
    const entry = compiledEntry as Entry;
    const at = (path: string, seconds: number): void => utimesSync(path, seconds, seconds);
    mkdirSync(join(root, 'src', 'main'), { recursive: true });
    mkdirSync(join(root, 'src', 'web', 'client'), { recursive: true });
    mkdirSync(join(root, 'dist', 'js', 'src', 'main'), { recursive: true });
    writeFileSync(join(root, 'src', 'main', 'cli.ts'), '');
    writeFileSync(join(root, 'src', 'web', 'client', 'main.ts'), '');
    at(join(root, 'src', 'main', 'cli.ts'), 1_000);
    at(join(root, 'src', 'web', 'client', 'main.ts'), 9_000); // bundled by esbuild, not compiled: ignored
    assert.equal(entry(root), null, 'no build yet');
    writeFileSync(join(root, 'dist', 'js', 'src', 'main', 'cli.js'), '');
    writeFileSync((stampOf as Entry)(root)!, JSON.stringify({ builtAt: 2_000_000 }));
    assert.equal((newestSource as (r: string) => number)(root), 1_000_000);
    assert.equal(entry(root), join(root, 'dist', 'js', 'src', 'main', 'cli.js'));
    process.env['OUTPOINT_RUN_SOURCES'] = '1';
    assert.equal(entry(root), null, 'switched off');
    delete process.env['OUTPOINT_RUN_SOURCES'];
    writeFileSync(join(root, 'src', 'main', 'new.sql'), '');
    at(join(root, 'src', 'main', 'new.sql'), 3_000);
    assert.equal(entry(root), null, 'a source changed after the build');
    writeFileSync((stampOf as Entry)(root)!, 'not json');
    assert.equal(entry(root), null, 'a broken stamp');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
