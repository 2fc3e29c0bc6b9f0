/**
 * `npm run build` (first half, and so `prepack`): the explorer's browser assets into dist/web. The client script is
 * bundled with esbuild (pusher-js included: nothing is fetched from the internet at run time), the hand-written CSS
 * bundled and minified, the favicons copied. Each output gets a content hash in its name (served as immutable) plus
 * brotli and gzip copies made once here, not per request; the manifest is written last and files of older builds
 * are removed. The server only reads the result (src/web/shell/asset-manifest.ts): esbuild is a build tool, never
 * loaded by `outpoint serve`, and not installed with the package.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { packageRoot } from '../src/core/infrastructure/package-root.js';
import { DEFAULT_ASSET_DIR, MANIFEST_FILE, webSourceHash, type AssetManifest } from '../src/web/shell/asset-manifest.js';

/** Writes through a temporary name and renames: a process starting meanwhile never reads half a file. */
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

/** Builds every asset into `outDir`, writes the manifest last, then removes the files no manifest names any more. */
export async function buildWebAssets(outDir = DEFAULT_ASSET_DIR, root = packageRoot()): Promise<AssetManifest> {
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
  const manifest: AssetManifest = { sourceHash: webSourceHash(root)!, files };
  writeAtomic(join(outDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  const kept = new Set([MANIFEST_FILE, ...Object.values(files).flatMap((name) => [name, `${name}.br`, `${name}.gz`])]);
  for (const name of readdirSync(outDir)) if (!kept.has(name) && !name.endsWith('.tmp')) rmSync(join(outDir, name), { force: true });
  return manifest;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const manifest = await buildWebAssets();
  for (const [logical, name] of Object.entries(manifest.files)) {
    const size = (suffix: string): number => readFileSync(join(DEFAULT_ASSET_DIR, name + suffix)).length;
    process.stdout.write(`${logical.padEnd(12)} ${name.padEnd(30)} ${size('')} B, gzip ${size('.gz')} B, brotli ${size('.br')} B\n`);
  }
}
