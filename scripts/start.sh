#!/usr/bin/env bash
# The one "run the service" command (README). Installs what is missing (npm packages, litecoind), then:
#   no arguments          -> a live demo: regtest litecoind + traffic + outpoint serve (Ctrl-C stops all)
#   --config FILE [...]   -> outpoint serve with your configuration
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ $# -eq 0 ]; then exec node bin/outpoint.js demo; fi
exec node bin/outpoint.js serve "$@"
