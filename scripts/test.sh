#!/usr/bin/env bash
# The one test command (README and CI): installs what the tests need, then lint, types, and every test.
set -euo pipefail
cd "$(dirname "$0")/.."
OUTPOINT_SETUP_TEST_DEPS=1 bash scripts/setup.sh
echo "== lint"
npx eslint .
npx depcruise src --config .dependency-cruiser.cjs
echo "== typecheck"
npx tsc --noEmit -p tsconfig.json
npx tsc --noEmit -p src/web/client/tsconfig.json
echo "== tests"
bash scripts/run-tests.sh "$@"
