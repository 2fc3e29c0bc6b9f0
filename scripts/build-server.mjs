// `npm run build` (second half): compiles src/ into dist/js when a source changed since the last build
// (tsconfig.build.json, incremental), then stamps the build with the time it started: a file edited while tsc
// runs is newer than the stamp, so bin/outpoint.js runs the sources until the next build.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { compiledEntry, ROOT, stampOf } from '../bin/compiled.js';

if (compiledEntry() === null) {
  const builtAt = Date.now();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  mkdirSync(dirname(stampOf()), { recursive: true });
  writeFileSync(stampOf(), `${JSON.stringify({ builtAt })}\n`);
}
