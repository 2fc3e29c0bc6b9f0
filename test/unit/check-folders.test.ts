/** scripts/check-folders.mjs: the folder-size rule of docs/architecture.md (at most 20 .ts files directly in a folder). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const check = (src?: string) => spawnSync(process.execPath, ['scripts/check-folders.mjs', ...(src ? [src] : [])], { encoding: 'utf8' });

test('this checkout keeps the rule', () => {
  const result = check();
  assert.equal(result.status, 0, result.stderr);
});

test('a folder with 21 .ts files fails and is named; 20, other files and subfolders do not count', () => {
  const src = mkdtempSync(join(tmpdir(), 'outpoint-folders-'));
  try {
    const fill = (dir: string, n: number, ext = '.ts') => {
      mkdirSync(join(src, dir), { recursive: true });
      for (let i = 0; i < n; i++) writeFileSync(join(src, dir, `f${i}${ext}`), '');
    };
    fill('full', 20);
    fill('full', 5, '.sql');
    fill('full/inner', 20);
    assert.equal(check(src).status, 0);
    fill('crowded/room', 21);
    const result = check(src);
    assert.equal(result.status, 1);
    assert.match(result.stderr, /crowded\/room\/ holds 21 \.ts files/);
    assert.doesNotMatch(result.stderr, /full/);
  } finally {
    rmSync(src, { recursive: true, force: true });
  }
});
