#!/usr/bin/env bash
# Runs a command with TMPDIR set to a fresh, empty directory and fails if the command leaves anything in it:
# every test must remove the files, directories and sockets it creates (litecoind datadirs, PostgreSQL clusters,
# config files). The leftovers are listed, then removed so that a failed run does not fill the disk.
set -uo pipefail
base="${OUTPOINT_TEST_TMP_BASE:-${TMPDIR:-/tmp}}"
dir="$(mktemp -d "$base/outpoint-test-tmp-XXXXXX")"
# Like /tmp: test helpers run PostgreSQL as the postgres user (when root), which must reach its dirs in here.
chmod 1777 "$dir"
# tsx keeps its compile cache in $TMPDIR/tsx-<uid>: point it at the usual one, so runs stay warm and it is no leftover.
tsx_cache="tsx-$(id -u)"
mkdir -p "$base/$tsx_cache"
ln -s "$base/$tsx_cache" "$dir/$tsx_cache"
# npm 11 (Node 24's) keeps Node's module compile cache in $TMPDIR/node-compile-cache: the usual one too.
compile_cache="node-compile-cache"
mkdir -p "$base/$compile_cache"
ln -s "$base/$compile_cache" "$dir/$compile_cache"
TMPDIR="$dir" "$@"
status=$?
leftovers="$(cd "$dir" && find . -mindepth 1 -maxdepth 1 ! -name "$tsx_cache" ! -name "$compile_cache" | sort)"
if [ -n "$leftovers" ]; then
  echo "with-clean-tmp: the run left $(printf '%s\n' "$leftovers" | wc -l) entries in its temp dir (every test must clean up what it creates):"
  printf '%s\n' "$leftovers" | sed 's/^\.\//  /' | head -50
  [ "$status" -ne 0 ] || status=3
fi
rm -rf "$dir"
exit "$status"
