/**
 * Builds the explorer's browser assets (`npm run build`, and at start-up when they are missing or older than
 * their sources): the client script bundled with esbuild (pusher-js included: nothing is fetched from the
 * internet at run time), the hand-written CSS bundled and minified, the favicons. Each output gets a content
 * hash in its name (served as immutable) plus brotli and gzip copies made once here, not per request.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, version as esbuildVersion } from 'esbuild';
import { packageRoot } from '../../core/infrastructure/package-root.js';

/** The repository root (package-root.ts: the same whether the code runs from src/ or compiled into dist/js/). */
export const REPO_ROOT = packageRoot();
export const DEFAULT_ASSET_DIR = join(REPO_ROOT, 'dist', 'web');

/** Everything the outputs are made from: a change to any of these makes the built assets stale. */
const SOURCE_DIRS = ['src/web/client', 'src/web/styles', 'src/web/static', 'src/web/build'];
const PACKAGES_BUNDLED = ['pusher-js'];

export interface AssetManifest {
  /** sha256 of the sources, the bundled packages' versions and esbuild's: compared at start-up. */
  readonly sourceHash: string;
  /** Logical name (app.js, app.css, favicon.svg, favicon.ico) to the file name served. */
  readonly files: Readonly<Record<string, string>>;
}

export const MANIFEST_FILE = 'manifest.json';

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)]))
    .sort();
}

/** Hash of every input of the build; cheap (a few dozen small files), so start-up can check it every time. */
export function webSourceHash(root = REPO_ROOT): string {
  const hash = createHash('sha256');
  for (const dir of SOURCE_DIRS) {
    for (const file of listFiles(join(root, dir))) {
      if (file.endsWith('.test.ts')) continue;
      hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  for (const name of PACKAGES_BUNDLED) {
    const pkg = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
    hash.update(`${name}@${pkg.version}\0`);
  }
  return hash.update(`esbuild@${esbuildVersion}`).digest('hex');
}

/** Writes through a temporary name and renames: concurrently starting processes never read half a file. */
function writeAtomic(path: string, data: Uint8Array | string): void {
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temp, data);
  renameSync(temp, path);
}

function hashedName(logical: string, data: Uint8Array): string {
  const dot = logical.lastIndexOf('.');
  const digest = createHash('sha256').update(data).digest('hex').slice(0, 12);
  return `${logical.slice(0, dot)}.${digest}${logical.slice(dot)}`;
}

async function bundle(root: string, entry: string): Promise<Uint8Array> {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    minify: true,
    write: false,
    format: entry.endsWith('.ts') ? 'esm' : undefined,
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    legalComments: 'none',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.contents;
}

/** Builds every asset into `outDir` and writes the manifest last (a reader sees the old set or the new one). */
export async function buildWebAssets(outDir = DEFAULT_ASSET_DIR, root = REPO_ROOT): Promise<AssetManifest> {
  const sourceHash = webSourceHash(root);
  const outputs: Record<string, Uint8Array> = {
    'app.js': await bundle(root, 'src/web/client/main.ts'),
    'app.css': await bundle(root, 'src/web/styles/main.css'),
    'favicon.svg': readFileSync(join(root, 'src/web/static/favicon.svg')),
    'favicon.ico': readFileSync(join(root, 'src/web/static/favicon.ico')),
  };
  mkdirSync(outDir, { recursive: true });
  const files: Record<string, string> = {};
  for (const [logical, data] of Object.entries(outputs)) {
    const name = hashedName(logical, data);
    files[logical] = name;
    writeAtomic(join(outDir, name), data);
    writeAtomic(join(outDir, `${name}.br`), brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeAtomic(join(outDir, `${name}.gz`), gzipSync(data, { level: 9 }));
  }
  const manifest: AssetManifest = { sourceHash, files };
  writeAtomic(join(outDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/** The manifest in `outDir`, or null when there is none (never built). */
export function readManifest(outDir = DEFAULT_ASSET_DIR): AssetManifest | null {
  try {
    statSync(join(outDir, MANIFEST_FILE));
  } catch {
    return null;
  }
  return JSON.parse(readFileSync(join(outDir, MANIFEST_FILE), 'utf8')) as AssetManifest;
}

/** The built assets, rebuilt first when missing or made from other sources than the ones checked out. */
export async function freshWebAssets(outDir = DEFAULT_ASSET_DIR, root = REPO_ROOT): Promise<{ manifest: AssetManifest; rebuilt: boolean }> {
  const manifest = readManifest(outDir);
  if (manifest && manifest.sourceHash === webSourceHash(root)) return { manifest, rebuilt: false };
  return { manifest: await buildWebAssets(outDir, root), rebuilt: true };
}
