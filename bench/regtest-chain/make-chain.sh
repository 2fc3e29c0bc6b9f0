#!/usr/bin/env bash
# make-chain.sh DATADIR NTX
#   Creates a litecoind -regtest chain in DATADIR (must be empty or absent) holding about
#   NTX transactions, then stops the node cleanly. See README.md.
# Env: LTC_RPCPORT (29332), LTC_P2PPORT (29333, not listened on), LTC_RPCUSER/LTC_RPCPASS,
#      MWEB=1 to let MWEB activate at height 432 (default: kept inactive),
#      SEED (1), MIN_PER_BLOCK (200), MAX_PER_BLOCK (500), WALLET_SHARE (0.01).
set -euo pipefail
. "$(dirname "$0")/common.sh"

if [ $# -ne 2 ]; then echo "usage: $0 DATADIR NTX" >&2; exit 2; fi
DATADIR=$(mkdir -p "$1" && cd "$1" && pwd)
NTX=$2
MWEB=${MWEB:-0}
if [ -e "$DATADIR/regtest" ]; then
  echo "$DATADIR/regtest exists; give an empty DATADIR" >&2; exit 2
fi

write_conf "$DATADIR" "$MWEB"
NODE_PID=
trap 'stop_node' EXIT
T0=$(date +%s.%N)
start_node "$DATADIR"

"$PY" "$CHAIN_TOOL_DIR/chaingen.py" --ntx "$NTX" --rpcport "$LTC_RPCPORT" \
  --rpcuser "$LTC_RPCUSER" --rpcpassword "$LTC_RPCPASS" \
  --seed "${SEED:-1}" --mweb "$MWEB" \
  --min-per-block "${MIN_PER_BLOCK:-200}" --max-per-block "${MAX_PER_BLOCK:-500}" \
  --wallet-share "${WALLET_SHARE:-0.01}" \
  --summary "$DATADIR/chain-summary.json"

stop_node
T1=$(date +%s.%N)
log "chain in $DATADIR: $(du -sh "$DATADIR/regtest" | cut -f1) on disk; make-chain total wall time $(echo "$T1 - $T0" | bc) s (node start + generation + clean stop)"
