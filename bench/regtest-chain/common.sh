# Settings and helpers of make-chain.sh (sourced, not run).
# Every port is bound on 127.0.0.1 only. Override with environment variables.

LTC_RPCPORT=${LTC_RPCPORT:-29332}
LTC_P2PPORT=${LTC_P2PPORT:-29333}
LTC_RPCUSER=${LTC_RPCUSER:-peer}
LTC_RPCPASS=${LTC_RPCPASS:-peerpass}
LITECOIND=${LITECOIND:-$([ -x /usr/lib/litecoin/litecoind ] && echo /usr/lib/litecoin/litecoind || echo litecoind)}
LITECOIN_CLI=${LITECOIN_CLI:-litecoin-cli}
# Debian's python3 (chaingen.py needs its standard library only).
PY=${PY:-python3}
CHAIN_TOOL_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)


log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

# write_conf DATADIR MWEB(0|1): the node settings live in DATADIR/litecoin.conf so that
# every later start of the node on this datadir uses the same ones.
write_conf() {
  local dd=$1 mweb=${2:-0}
  mkdir -p "$dd"
  {
    echo "regtest=1"
    echo "server=1"
    echo "[regtest]"
    echo "rpcuser=$LTC_RPCUSER"
    echo "rpcpassword=$LTC_RPCPASS"
    echo "rpcbind=127.0.0.1"
    echo "rpcallowip=127.0.0.1"
    echo "rpcport=$LTC_RPCPORT"
    echo "port=$LTC_P2PPORT"
    echo "listen=0"
    echo "dnsseed=0"
    echo "discover=0"
    echo "upnp=0"
    echo "txindex=1"
    echo "fallbackfee=0.0001"
    echo "dbcache=1000"
    echo "maxmempool=1000"
    echo "persistmempool=0"
    echo "rpcthreads=8"
    echo "rpcworkqueue=256"
    echo "limitancestorcount=1000"
    echo "limitdescendantcount=1000"
    echo "limitancestorsize=5000"
    echo "limitdescendantsize=5000"
    if [ "$mweb" != 1 ]; then
      # Keep MWEB (BIP9 bit, would activate at height 432 on regtest) from ever
      # activating: start time far in the future. Plain pre-MWEB Litecoin chain.
      echo "vbparams=mweb:4102444800:4102444801"
    fi
  } > "$dd/litecoin.conf"
}

cli() { "$LITECOIN_CLI" -datadir="$NODE_DATADIR" -rpcport="$LTC_RPCPORT" \
          -rpcuser="$LTC_RPCUSER" -rpcpassword="$LTC_RPCPASS" "$@"; }

# start_node DATADIR: starts litecoind in the background, sets NODE_PID, waits for RPC.
start_node() {
  NODE_DATADIR=$1
  if cli getblockcount >/dev/null 2>&1; then
    echo "something already answers RPC on 127.0.0.1:$LTC_RPCPORT; set LTC_RPCPORT" >&2
    return 1
  fi
  "$LITECOIND" -datadir="$NODE_DATADIR" -printtoconsole=0 >"$NODE_DATADIR/litecoind.out" 2>&1 &
  NODE_PID=$!
  log "litecoind pid $NODE_PID (datadir $NODE_DATADIR, rpc 127.0.0.1:$LTC_RPCPORT)"
  local i
  for i in $(seq 1 600); do
    if cli getblockcount >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$NODE_PID" 2>/dev/null; then
      echo "litecoind exited; see $NODE_DATADIR/litecoind.out and $NODE_DATADIR/regtest/debug.log" >&2
      NODE_PID=; return 1
    fi
    sleep 0.2
  done
  echo "litecoind RPC did not come up" >&2
  return 1
}

# stop_node: RPC stop, then wait for our PID; SIGTERM (clean shutdown too) if RPC fails.
stop_node() {
  [ -n "${NODE_PID:-}" ] || return 0
  if kill -0 "$NODE_PID" 2>/dev/null; then
    cli stop >/dev/null 2>&1 || kill -TERM "$NODE_PID" 2>/dev/null || true
    local i
    for i in $(seq 1 600); do kill -0 "$NODE_PID" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$NODE_PID" 2>/dev/null; then
      log "litecoind $NODE_PID still running after 120 s; SIGKILL"
      kill -KILL "$NODE_PID" 2>/dev/null || true
    fi
  fi
  wait "$NODE_PID" 2>/dev/null || true
  log "litecoind $NODE_PID stopped"
  NODE_PID=
}
