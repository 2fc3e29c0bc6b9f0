/**
 * One version everywhere (CHANGELOG.md, semantic versioning): package.json's, the one `outpoint --version` prints,
 * and a CHANGELOG.md section for it below the Unreleased section other changes add to.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { VERSION } from '../../src/main/wiring/version.js';

const ROOT = new URL('../../', import.meta.url);

test('package.json, outpoint --version and CHANGELOG.md name the same version', () => {
  const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { version: string };
  assert.match(pkg.version, /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, 'a semantic version');
  assert.equal(VERSION, pkg.version);
  const changelog = readFileSync(new URL('CHANGELOG.md', ROOT), 'utf8');
  const sections = [...changelog.matchAll(/^## (\S+)/gm)].map((m) => m[1]);
  assert.equal(sections[0], 'Unreleased', 'the first section collects what is not released yet');
  assert.ok(sections.includes(pkg.version), `a section for ${pkg.version}`);
});
