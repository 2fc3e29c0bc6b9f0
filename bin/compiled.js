// Whether the compiled JavaScript in dist/js (`npm run build`, tsconfig.build.json) is current: it starts about a
// second sooner than running the TypeScript sources through tsx (docs/benchmarks.md, Initial sync). Current means
// built after the last change to any source file it is made from; otherwise bin/outpoint.js runs the sources. An
// installed package carries no sources (package.json "files"), so there the build is always current.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const stampOf = (root = ROOT) => join(root, 'dist', 'js', 'BUILD.json');
const entryOf = (root) => join(root, 'dist', 'js', 'src', 'main', 'cli.js');

/** The newest modification time (ms) of the sources the build compiles (tsconfig.build.json's set). */
export function newestSource(root = ROOT, dir = join(root, 'src')) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== join(root, 'src', 'web', 'client')) newest = Math.max(newest, newestSource(root, path));
    } else if (entry.name.endsWith('.ts') || entry.name.endsWith('.sql')) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

/** Whether this copy has its TypeScript sources (a checkout), which bin/outpoint.js can run through tsx. */
export const hasSources = (root = ROOT) => existsSync(join(root, 'src', 'main', 'cli.ts'));

/** dist/js's entry point when it is current, else null (also when OUTPOINT_RUN_SOURCES=1). */
export function compiledEntry(root = ROOT) {
  if (process.env.OUTPOINT_RUN_SOURCES === '1' || !existsSync(stampOf(root)) || !existsSync(entryOf(root))) return null;
  try {
    const { builtAt } = JSON.parse(readFileSync(stampOf(root), 'utf8'));
    return typeof builtAt === 'number' && builtAt >= newestSource(root) ? entryOf(root) : null;
  } catch {
    return null;
  }
}
