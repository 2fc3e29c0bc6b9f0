#!/usr/bin/env bash
# Regenerates the upgrade fixture test/fixtures/upgrade/TAG/ (default v0.1.0) with that version's own code: the tag
# is checked out into a temporary git worktree, built there (its node_modules: this checkout's when the two lock files
# name the same packages, else its own `npm ci`), and test/upgrade/make-upgrade-fixture.ts drives its CLI and
# `outpoint serve` against a regtest litecoind, PostgreSQL and an exchange stand-in, then writes the stores, the
# chain's raw blocks and what the old version answered (test/upgrade/upgrade-fixture.ts says what each file is).
# Needs git history with the tag; the test that reads the fixture does not.
set -euo pipefail
cd "$(dirname "$0")/.."
tag="${1:-v0.1.0}"
out="test/fixtures/upgrade/$tag"
git rev-parse --verify --quiet "$tag^{commit}" >/dev/null || { echo "make-upgrade-fixture: no tag $tag here (git fetch --tags)" >&2; exit 2; }
work="$(mktemp -d)"
cleanup() { git worktree remove --force "$work/outpoint" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
git worktree add --detach "$work/outpoint" "$tag" >/dev/null
same_packages() { diff <(node -e 'const l=require(process.argv[1]);console.log(Object.entries(l.packages).map(([k,v])=>k+"@"+v.version).sort().join("\n"))' "$PWD/package-lock.json") \
                       <(node -e 'const l=require(process.argv[1]);console.log(Object.entries(l.packages).map(([k,v])=>k+"@"+v.version).sort().join("\n"))' "$work/outpoint/package-lock.json") >/dev/null; }
if same_packages; then
  ln -s "$PWD/node_modules" "$work/outpoint/node_modules"
else
  echo "make-upgrade-fixture: $tag's packages differ from this checkout's: npm ci there"
  (cd "$work/outpoint" && npm ci --no-audit --no-fund --loglevel=error)
fi
echo "make-upgrade-fixture: building $tag"
(cd "$work/outpoint" && npm run build --silent >/dev/null)
rm -rf "$out"
node --import tsx test/upgrade/make-upgrade-fixture.ts "$work/outpoint" "$out" "$tag"
du -sh "$out"/*
