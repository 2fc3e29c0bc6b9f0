#!/usr/bin/env node
// Runs the compiled JavaScript when `npm run build` made it from the current sources (bin/compiled.js), else the
// TypeScript sources through tsx, so that `outpoint` works from a fresh checkout and right after an edit.
import { compiledEntry } from './compiled.js';

const entry = compiledEntry();
if (entry) {
  await import(entry);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main/cli.ts');
}
