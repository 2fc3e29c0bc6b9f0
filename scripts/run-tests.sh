#!/usr/bin/env bash
# Runs Node's built-in test runner over every *.test.ts (or the files given), TypeScript loaded by tsx.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then files=("$@"); else mapfile -t files < <(find src test -name '*.test.ts' | sort); fi
exec node --import tsx --test --test-concurrency="${TEST_CONCURRENCY:-2}" --test-timeout="${TEST_TIMEOUT_MS:-600000}" "${files[@]}"
