/** `npm run build`: the explorer's browser assets into dist/web (src/web/build/web-build.ts), with their sizes. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWebAssets, DEFAULT_ASSET_DIR } from '../src/web/build/web-build.js';

const manifest = await buildWebAssets();
for (const [logical, name] of Object.entries(manifest.files)) {
  const size = (suffix: string): number => readFileSync(join(DEFAULT_ASSET_DIR, name + suffix)).length;
  process.stdout.write(`${logical.padEnd(12)} ${name.padEnd(30)} ${size('')} B, gzip ${size('.gz')} B, brotli ${size('.br')} B\n`);
}
