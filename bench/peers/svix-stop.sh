#!/usr/bin/env bash
# Stops svix-server, Redis and PostgreSQL started by svix-run.sh. Idempotent.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BASE=${SVIX_WORK_DIR:-$(cd "$HERE/../.." && pwd)/.cache/svix}
cd /

PEER_NAME=svix-stop
# shellcheck source=bench/peers/peer-kit.sh
. "$HERE/peer-kit.sh"
daemon_stop "$BASE" svix
stores_stop "$BASE" "${REDIS_PORT:-56379}"
exit 0
