/**
 * Rules of the web layer checked on its sources (a CI gate next to the escaping templates): markup is injected
 * unescaped only through `trustedHtml` in allow-listed files; pages read through services, never a store
 * reader; no inline script, inline event handler or style attribute (the CSP would block them anyway, and a
 * blocked script is a console error).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = new URL('../..', import.meta.url).pathname;
const WEB = join(ROOT, 'src/web');
/** Files allowed to call trustedHtml: data-table.ts labels cells with heading text that `html` already escaped. */
const TRUSTED_HTML_ALLOWED = new Set(['src/web/shell/html.ts', 'src/web/shell/data-table.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'client' ? [] : sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Comments may talk about <script>; only code counts. */
const withoutComments = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
const files = sources(WEB).map((path) => ({ path: relative(ROOT, path), text: withoutComments(readFileSync(path, 'utf8')) }));

test('trustedHtml is called only where allowed', () => {
  const users = files.filter((f) => /\btrustedHtml\(/.test(f.text)).map((f) => f.path);
  assert.deepEqual(users.filter((p) => !TRUSTED_HTML_ALLOWED.has(p)), []);
});

test('pages read through services, never a NetworkContext reader or a store', () => {
  assert.deepEqual(files.filter((f) => /\.reader\b/.test(f.text)).map((f) => f.path), []);
  assert.deepEqual(files.filter((f) => /from '[./]*\/store\//.test(f.text)).map((f) => f.path), []);
});

test('no inline script, event handler attribute or style attribute in the templates', () => {
  for (const f of files) {
    for (const match of f.text.matchAll(/<script\b[^>]*>/g)) assert.match(match[0], /\ssrc="/, `${f.path}: ${match[0]}`);
    assert.doesNotMatch(f.text, /<[a-z][^>]*\son[a-z]+=/i, `${f.path}: inline event handler`);
    assert.doesNotMatch(f.text, /<[a-z][^>]*\sstyle=/i, `${f.path}: style attribute`);
  }
});
