/**
 * Outpoint's own directory (where its package.json is). The code runs from src/ through tsx or compiled into
 * dist/js/src/ (bin/outpoint.js picks), so files shipped beside the code (SQL migrations, the native sender, the
 * explorer's built assets) are found from here rather than by a fixed number of '..' from the running file.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null = null;

export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  root = dir;
  return root;
}
