#!/usr/bin/env bash
# Runs Node's built-in test runner, TypeScript loaded by tsx, over the files given, or over every *.test.ts (slowest
# first, scripts/test-files.mjs), or with --quick over the files that start no server: unit tests and the in-process
# API and web tests, the developer loop (`npm run test:quick`; README: which command runs what), or with --no-browser
# over every file but the Chromium ones (the second Node line in scripts/test.sh).
# TEST_CONCURRENCY files run at once (default: one per CPU, at least 2); each file's time goes to
# .tmp/test-times.json and the slowest are listed at the end (scripts/test-times-reporter.mjs). A file (and each test)
# is failed after TEST_TIMEOUT_MS, default 20 minutes: the package test packs the checkout and compiles the SQLite
# binding for Node 20, which takes more than 10 minutes on a 2-core machine that other test runs load.
set -euo pipefail
cd "$(dirname "$0")/.."
only=()
while [ "${1:-}" = --quick ] || [ "${1:-}" = --no-browser ]; do only+=("$1"); shift; done
if [ $# -gt 0 ]; then files=("$@"); else mapfile -t files < <(node scripts/test-files.mjs "${only[@]}"); fi
cpus="$(nproc 2>/dev/null || echo 2)"
concurrency="${TEST_CONCURRENCY:-$(( cpus > 2 ? cpus : 2 ))}"
# The usual report on stdout (spec on a terminal, TAP for logs), the per-file times on stderr.
format=tap
[ -t 1 ] && format=spec
exec node --import tsx --test --test-concurrency="$concurrency" --test-timeout="${TEST_TIMEOUT_MS:-1200000}" \
  --test-reporter="$format" --test-reporter-destination=stdout \
  --test-reporter=./scripts/test-times-reporter.mjs --test-reporter-destination=stderr \
  "${files[@]}"
