#!/usr/bin/env bash
# The one test command (README and CI): installs what the tests need, then lint, types, and every test on the
# machine's Node.js, then every test again on a second LTS line (OUTPOINT_TEST_SECOND_NODE, default 24; empty skips
# it) but the Chromium ones: what those test runs in the browser, the server side they drive is tested on both lines
# by the HTTP and realtime tests, and they are a quarter of the run (OUTPOINT_TEST_SECOND_NODE_BROWSER=1 runs them
# there too). Each test run gets a fresh TMPDIR and fails if it leaves anything there.
set -euo pipefail
cd "$(dirname "$0")/.."
OUTPOINT_SETUP_TEST_DEPS=1 bash scripts/setup.sh
echo "== lint"
npx eslint .
npx depcruise src --config .dependency-cruiser.cjs
node scripts/check-folders.mjs
echo "== typecheck"
npx tsc --noEmit -p tsconfig.json
npx tsc --noEmit -p src/web/client/tsconfig.json
echo "== tests on Node $(node --version)"
started=$SECONDS
bash scripts/with-clean-tmp.sh bash scripts/run-tests.sh "$@"
echo "== tests on Node $(node --version) took $((SECONDS - started)) s"
second="${OUTPOINT_TEST_SECOND_NODE-24}"
if [ -n "$second" ]; then
  echo "== tests on Node $second"
  started=$SECONDS
  if [ $# -gt 0 ] || [ "${OUTPOINT_TEST_SECOND_NODE_BROWSER:-}" = 1 ]; then
    bash scripts/test-on-node.sh "$second" "$@"
  else
    bash scripts/test-on-node.sh "$second" --no-browser
  fi
  echo "== tests on Node $second took $((SECONDS - started)) s (with its setup)"
fi
