#!/usr/bin/env bash
# Installs everything Outpoint and its tests need on a fresh Debian machine (idempotent, quick when done).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
need=()
[ -x /usr/lib/litecoin/litecoind ] || need+=(litecoind)
if [ "${OUTPOINT_SETUP_TEST_DEPS:-0}" = 1 ]; then
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
  command -v redis-server >/dev/null || need+=(redis-server)
  # The HTTPS test makes its certificates at test time with the openssl CLI.
  command -v openssl >/dev/null || need+=(openssl)
  # The explorer's browser tests drive Debian's Chromium headless (playwright-core, no browser download).
  [ -x /usr/bin/chromium ] || need+=(chromium)
  # deploy/systemd's test checks the units with systemd-analyze (verify, security --offline), which runs without
  # systemd as PID 1 (containers); Debian ships it in the systemd package.
  command -v systemd-analyze >/dev/null || need+=(systemd)
fi
# The Electrum server's wallet test drives Debian's Electrum (4.3.4) through its CLI; without its recommends (no GUI).
lean=()
[ "${OUTPOINT_SETUP_TEST_DEPS:-0}" = 1 ] && ! [ -x /usr/bin/electrum ] && lean+=(electrum)
if [ ${#need[@]} -gt 0 ] || [ ${#lean[@]} -gt 0 ]; then
  echo "setup: apt-get install ${need[*]} ${lean[*]}"
  $SUDO apt-get update -q >/dev/null
  # Several checkouts may run setup at once: wait for another apt-get rather than fail on its lock.
  [ ${#need[@]} -eq 0 ] || $SUDO apt-get install -y -q -o DPkg::Lock::Timeout=600 "${need[@]}" >/dev/null
  [ ${#lean[@]} -eq 0 ] || $SUDO apt-get install -y -q --no-install-recommends -o DPkg::Lock::Timeout=600 "${lean[@]}" >/dev/null
fi
if [ "${OUTPOINT_SETUP_TEST_DEPS:-0}" = 1 ] && [ ! -x "${BITCOIND_PREFIX:-/opt/bitcoind}/bin/bitcoind" ]; then
  echo "setup: installing bitcoind"
  $SUDO bash scripts/install-bitcoind.sh "${BITCOIND_PREFIX:-/opt/bitcoind}" || echo "setup: bitcoind install failed; bitcoind tests will report it"
fi
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
# npm ci builds it (package.json "install"); a checkout whose node_modules predate native/ builds it here.
if [ ! -f native/fanout/build/Release/fanout.node ]; then
  echo "setup: building native/fanout"
  npm run build:native --silent || echo "setup: native/fanout not built; realtime uses the JavaScript sender"
fi
# The explorer's browser assets (dist/web): rebuilt every time (about a second), so no command ever serves a
# stale bundle; `outpoint serve` also rebuilds them at start when their sources changed.
npm run build --silent >/dev/null
