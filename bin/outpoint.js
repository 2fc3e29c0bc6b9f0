#!/usr/bin/env node
// Runs the compiled JavaScript when `npm run build` made it from the current sources (bin/compiled.js), else, in a
// checkout, the TypeScript sources through tsx (a development dependency), so that `outpoint` works from a fresh
// checkout and right after an edit. An installed package runs its compiled JavaScript only.
import { compiledEntry, hasSources } from './compiled.js';

const entry = compiledEntry();
if (entry) {
  await import(entry);
} else if (!hasSources()) {
  process.stderr.write('outpoint: this copy has neither its compiled JavaScript (dist/js) nor its sources: the package was packed without `npm run build`\n');
  process.exitCode = 1;
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write('outpoint: the sources changed since the last build and tsx (a development dependency) is not installed: run `npm run build` (or `npm ci`)\n');
    process.exit(1);
  }
  register();
  await import('../src/main/cli.ts');
}
