#!/usr/bin/env bash
# Installs a bitcoind for the regtest tests (test/helpers/regtest-node.ts): Bitcoin Knots (RPC-compatible with
# Bitcoin Core, built with ZMQ) from Debian's unstable suite. Debian bookworm has no bitcoind package, and the
# unstable one links against a newer glibc, so its binaries run through that suite's own dynamic loader and
# libraries, all unpacked under PREFIX; the system's packages stay as they are (apart from three runtime
# libraries installed from bookworm). Idempotent: does nothing when PREFIX/bin/bitcoind runs.
# Usage: sudo bash scripts/install-bitcoind.sh [PREFIX]   (default /opt/bitcoind; gives PREFIX/bin/{bitcoind,bitcoin-cli})
set -euo pipefail
prefix="${1:-/opt/bitcoind}"
if [ -x "$prefix/bin/bitcoind" ] && "$prefix/bin/bitcoind" -version >/dev/null 2>&1; then
  echo "install-bitcoind: bitcoind already runs from $prefix/bin"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q -o DPkg::Lock::Timeout=600 libzmq5 libevent-extra-2.1-7 libevent-pthreads-2.1-7 >/dev/null

# The mirror this machine already uses (deb822 sources first, then the classic list), asked for "sid".
mirror="$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)"
if [ -z "$mirror" ]; then
  mirror="$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }' /etc/apt/sources.list 2>/dev/null || true)"
fi
[ -n "$mirror" ] || { echo "install-bitcoind: no Debian mirror found in /etc/apt" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$work/archives/partial"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror sid main" > "$work/sources.list"
# A private apt state: the sid index is read for this download only and never becomes a source of the system.
# Fetched as root (apt's _apt sandbox user cannot write into the private temp dir, and would only warn so).
apt_private=(-q -o APT::Sandbox::User=root -o Dir::State::Lists="$work/lists" -o Dir::State::status=/var/lib/dpkg/status
  -o Dir::Cache::Archives="$work/archives" -o Dir::Cache::pkgcache="" -o Dir::Cache::srcpkgcache=""
  -o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=/nonexistent)
apt-get "${apt_private[@]}" update >/dev/null
(cd "$work" && apt-get "${apt_private[@]}" download bitcoin-knots libc6 libstdc++6 libgcc-s1 >/dev/null)

mkdir -p "$prefix/root" "$prefix/libs" "$prefix/bin"
dpkg-deb -x "$work"/bitcoin-knots_*.deb "$prefix/root"
for package in libc6 libstdc++6 libgcc-s1; do dpkg-deb -x "$work/${package}"_*.deb "$prefix/libs"; done
libs="$prefix/libs/usr/lib/x86_64-linux-gnu"
for tool in bitcoind bitcoin-cli; do
  cat > "$prefix/bin/$tool" <<WRAPPER
#!/bin/sh
# $tool from Debian sid, run by sid's own loader and C/C++ libraries (see scripts/install-bitcoind.sh).
exec "$libs/ld-linux-x86-64.so.2" --library-path "$libs:/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu" "$prefix/root/usr/bin/$tool" "\$@"
WRAPPER
  chmod 755 "$prefix/bin/$tool"
done
"$prefix/bin/bitcoind" -version | head -1
