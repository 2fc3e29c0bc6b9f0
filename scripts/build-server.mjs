// `npm run build` (second half): compiles src/ into dist/js when a source changed since the last build
// (tsconfig.build.json, incremental), copies the files the compiled code reads beside itself (the SQL migrations),
// removes outputs whose source is gone (tsc leaves them, and `npm pack` would ship them), then stamps the build
// with the time it started: a file edited meanwhile is newer than the stamp, so bin/outpoint.js runs the sources
// until the next build.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { compiledEntry, ROOT, stampOf } from '../bin/compiled.js';

const OUT = join(ROOT, 'dist', 'js');

/** Every file under dir (recursively). */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** Removes the directories under dir that hold no file (left by removed outputs). */
function removeEmptyDirs(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) removeEmptyDirs(join(dir, entry.name));
  if (dir !== OUT && readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
}

/** The source a dist/js file was made from: x.js from x.ts, x.sql copied from x.sql. */
const sourceOf = (output) => join(ROOT, relative(OUT, output)).replace(/\.js$/, '.ts');

if (compiledEntry() === null) {
  const builtAt = Date.now();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  for (const file of filesUnder(join(ROOT, 'src')).filter((f) => f.endsWith('.sql'))) {
    const target = join(OUT, relative(ROOT, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  for (const output of filesUnder(join(OUT, 'src'))) if (!existsSync(sourceOf(output))) rmSync(output);
  removeEmptyDirs(OUT);
  mkdirSync(dirname(stampOf()), { recursive: true });
  writeFileSync(stampOf(), `${JSON.stringify({ builtAt })}\n`);
}
