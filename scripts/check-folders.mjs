// The folder-size rule of docs/architecture.md: no folder in src/ holds more than 20 .ts files directly (tests
// included: they sit beside their code). A folder past it has more than one job: split it by domain or job, as the
// rooms are. Run by `npm run lint` and scripts/test.sh; exits 1 naming every folder over the limit.
// Usage: node scripts/check-folders.mjs [SRC_DIR] (default: this checkout's src/).
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_FILES = 20;
const root = dirname(dirname(fileURLToPath(import.meta.url)));

function* folders(dir) {
  const entries = readdirSync(dir, { withFileTypes: true });
  yield { dir, files: entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).length };
  for (const e of entries) if (e.isDirectory()) yield* folders(join(dir, e.name));
}

const src = process.argv[2] ?? join(root, 'src');
const over = [...folders(src)].filter((f) => f.files > MAX_FILES);
for (const { dir, files } of over) console.error(`${relative(dirname(src), dir)}/ holds ${files} .ts files directly (at most ${MAX_FILES}): split it by domain or job`);
if (over.length > 0) process.exit(1);
