// A node:test reporter run beside the usual one by scripts/run-tests.sh: how long each test file took, from the start
// of its process to its end (files run in parallel, so these are wall times of one file, not shares of the run). It
// merges them into .tmp/test-times.json (scripts/test-files.mjs runs the slowest files first next time) and prints the
// ten slowest, so that a run's cost is visible where it is spent.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const TIMES_FILE = join(ROOT, '.tmp', 'test-times.json');
const SHOWN = 10;

export default async function* testTimes(source) {
  const spans = new Map();
  for await (const event of source) {
    // Each file is a test of its own (named by its path): dequeued when its process starts, complete when it ends.
    const file = event.data?.name;
    if (event.data?.nesting !== 0 || typeof file !== 'string' || !file.endsWith('.test.ts') || event.data.file !== file) continue;
    if (event.type === 'test:dequeue') spans.set(file, { first: performance.now(), last: null });
    else if (event.type === 'test:complete' && spans.has(file)) spans.get(file).last = performance.now();
  }
  for (const [file, span] of spans) if (span.last === null) spans.delete(file);
  if (spans.size === 0) return;
  let times = {};
  try {
    times = JSON.parse(readFileSync(TIMES_FILE, 'utf8'));
  } catch {
    // No earlier run (or an unreadable file): start a new record.
  }
  const seconds = [...spans].map(([file, span]) => [relative(ROOT, file), Math.round((span.last - span.first) / 100) / 10]);
  for (const [file, s] of seconds) times[file] = s;
  mkdirSync(dirname(TIMES_FILE), { recursive: true });
  writeFileSync(TIMES_FILE, `${JSON.stringify(times, null, 1)}\n`);
  const slowest = seconds.sort((a, b) => b[1] - a[1]).slice(0, SHOWN);
  yield `\nslowest test files (seconds each, start to end; recorded in ${relative(ROOT, TIMES_FILE)}):\n`;
  for (const [file, s] of slowest) yield `${String(s).padStart(7)}  ${file}\n`;
}
