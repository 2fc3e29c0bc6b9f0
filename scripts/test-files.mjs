// Lists the test files scripts/run-tests.sh runs, one per line: every *.test.ts under src/ and test/, or with --quick
// only those that start no server (no regtest node, PostgreSQL, Redis, browser, `outpoint` process or SMTP sink;
// a short-lived child such as systemd-analyze is fine): the developer loop of `npm run test:quick`. With --no-browser,
// every file but those driving Chromium (the second Node line's run in scripts/test.sh: what they test runs in the
// browser, and the server side they drive runs on both lines in the HTTP and realtime tests). A file is judged by
// what it imports: the helpers below are the ones that start servers (a new such helper belongs in the list, and the
// files using it leave the quick set by themselves).
//
// Order: the slowest files first, so that the files in flight at the end of a run (TEST_CONCURRENCY of them) are short
// ones instead of one long file running alone. Durations come from earlier runs on this machine (.tmp/test-times.json,
// written by scripts/test-times-reporter.mjs). Files without one (all of them in a fresh clone, or a new file) come
// first, by their folder, slowest kind first: browser and end-to-end tests, faults, integration, benches, unit tests.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const TIMES_FILE = join(ROOT, '.tmp', 'test-times.json');

/** Imports of the test helpers (and e2e fixture modules) that start nodes, databases, browsers or `outpoint` processes. */
const STARTS_PROCESSES = /from '[./]*(?:test\/)?helpers\/(?:regtest-node|postgres-server|redis-server|browser|serve-process|store-engines|outpoint-cli|index-process|dogecoin\/[\w-]+|p2p-network|realtime-process|smtp-sink|payment-chain|indexer-harness|package-install|dashboard-fixture)\.js'|from '\.\/(?:explorer-fixture|v2-fixture|v3-fixture|v2-chain|dashboard-site|realtime-servers)\.js'|from '\.\.\/upgrade\//;

/** Imports of the browser helper, directly or through the explorer's and the dashboard's browser fixtures. */
const DRIVES_BROWSER = /from '[./]*(?:test\/)?helpers\/browser\.js'|from '\.\/(?:explorer-fixture|dashboard-site)\.js'/;

/** Folders by how slow their files usually are, slowest first (for files without a recorded time). */
const FOLDER_ORDER = ['test/web/', 'test/e2e/', 'test/faults/', 'test/integration/', 'test/bench/', 'src/', 'test/unit/'];

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

export function isQuick(file) {
  return !STARTS_PROCESSES.test(readFileSync(join(ROOT, file), 'utf8'));
}

export function drivesBrowser(file) {
  return DRIVES_BROWSER.test(readFileSync(join(ROOT, file), 'utf8'));
}

function recordedTimes() {
  try {
    return existsSync(TIMES_FILE) ? JSON.parse(readFileSync(TIMES_FILE, 'utf8')) : {};
  } catch {
    return {};
  }
}

export function listTestFiles({ quick = false, browser = true } = {}) {
  const files = [...testFiles(join(ROOT, 'src')), ...testFiles(join(ROOT, 'test'))].sort();
  const chosen = files.filter((file) => (!quick || isQuick(file)) && (browser || !drivesBrowser(file)));
  const times = recordedTimes();
  const rank = (file) => {
    const folder = FOLDER_ORDER.findIndex((prefix) => file.startsWith(prefix));
    return folder === -1 ? FOLDER_ORDER.length : folder;
  };
  return chosen.sort((a, b) => {
    const ta = times[a];
    const tb = times[b];
    if (ta !== undefined && tb !== undefined) return tb - ta;
    if (ta !== undefined || tb !== undefined) return ta === undefined ? -1 : 1;
    return rank(a) - rank(b) || a.localeCompare(b);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const browser = !process.argv.includes('--no-browser');
  for (const file of listTestFiles({ quick, browser })) process.stdout.write(`${file}\n`);
}
