#!/usr/bin/env bash
# Stops Convoy's agent and server, Redis and PostgreSQL started by convoy-run.sh. Idempotent.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BASE=${CONVOY_WORK_DIR:-$(cd "$HERE/../.." && pwd)/.cache/convoy}
cd /

PEER_NAME=convoy-stop
# shellcheck source=bench/peers/peer-kit.sh
. "$HERE/peer-kit.sh"
daemon_stop "$BASE" agent
daemon_stop "$BASE" server
stores_stop "$BASE" "${REDIS_PORT:-56380}"
exit 0
