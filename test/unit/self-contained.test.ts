/**
 * The repository stands alone (issue 29): a clone with nothing beside it runs its tests, benches and docs. So no file
 * names a path that leaves the checkout: every relative path (`../…`) resolves, from the file that writes it, to a
 * place inside the repository, and no file names this machine's directories above it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
/** Generated, installed or local-only: not part of what a clone carries. */
const SKIPPED_DIRS = new Set(['.git', 'node_modules', 'dist', '.bench-cache', '.tmp', 'data', 'build']);
/** Data files (hex and numbers) too large to be worth scanning for paths. */
const SKIPPED_UNDER = ['test/fixtures/blocks', 'test/fixtures/txs', 'test/fixtures/addresses'];
const TEXT = /\.(ts|js|mjs|cjs|json|md|sh|py|sql|toml|service|css|yml|yaml|txt)$|^[^.]+$/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    const rel = relative(ROOT, path);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) || SKIPPED_UNDER.includes(rel) ? [] : files(path);
    return entry.isFile() && TEXT.test(entry.name) ? [path] : [];
  });
}

test('no file names a path outside the repository', () => {
  const outside: string[] = [];
  for (const file of files(ROOT)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:\.\.\/)+[\w.-]*/g)) {
      const target = resolve(dirname(file), match[0]);
      if (target !== ROOT && !target.startsWith(ROOT + sep)) outside.push(`${relative(ROOT, file)}: ${match[0]}`);
    }
    for (const match of text.matchAll(/\/work\/[\w.-]+/g)) outside.push(`${relative(ROOT, file)}: ${match[0]}`);
  }
  assert.deepEqual(outside, []);
});
