/**
 * The explorer's built assets as the server finds them: `dist/web/manifest.json`, written last by `npm run build`
 * (scripts/build-web.ts, run before packing too). Serving only reads it; no bundler runs in the serving process.
 * Missing, it is an error that says how to build it; in a checkout whose web sources changed since the build, a
 * warning says the same (an installed package carries no sources, so there it is never stale).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packageRoot } from '../../core/infrastructure/package-root.js';

export interface AssetManifest {
  /** webSourceHash() of the sources the assets were built from. */
  readonly sourceHash: string;
  /** Logical name (app.js, app.css, favicon.svg, favicon.ico) to the file name served. */
  readonly files: Readonly<Record<string, string>>;
}

export const MANIFEST_FILE = 'manifest.json';
/** Where `npm run build` writes the assets: dist/web in Outpoint's own directory (a checkout or an installed package). */
export const DEFAULT_ASSET_DIR = join(packageRoot(), 'dist', 'web');

/** Everything the assets are made from (the bundle's sources and the build script itself), relative to the root. */
const SOURCES = ['src/web/client', 'src/web/shared', 'src/web/styles', 'src/web/static', 'scripts/build-web.ts'];

export class WebAssetsMissingError extends Error {
  constructor(dir: string) {
    super(`the explorer's assets are not built (no ${join(dir, MANIFEST_FILE)}): run \`npm run build\` in ${packageRoot()}`);
    this.name = 'WebAssetsMissingError';
  }
}

/** The files at `path` (itself, or everything below it), sorted; none where it does not exist. */
function listFiles(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => listFiles(join(path, name)));
}

/** Hash of the asset sources under `root`, or null where there are none (an installed package). Cheap: a few dozen small files. */
export function webSourceHash(root = packageRoot()): string | null {
  const files = SOURCES.flatMap((source) => listFiles(join(root, source))).filter((file) => !file.endsWith('.test.ts'));
  if (files.length === 0) return null;
  const hash = createHash('sha256');
  for (const file of files) hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** The manifest in `dir`; WebAssetsMissingError when there is none. */
export function readAssetManifest(dir = DEFAULT_ASSET_DIR): AssetManifest {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) throw new WebAssetsMissingError(dir);
  return JSON.parse(readFileSync(path, 'utf8')) as AssetManifest;
}

/** True when this checkout's asset sources differ from those the manifest was built from (never for a package). */
export function assetsStale(manifest: AssetManifest, root = packageRoot()): boolean {
  const current = webSourceHash(root);
  return current !== null && current !== manifest.sourceHash;
}
