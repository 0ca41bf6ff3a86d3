#!/usr/bin/env bash
# Starts Svix's server with its PostgreSQL and Redis, all bound to 127.0.0.1, in the background,
# for bench/peer-latency.ts. SVIX_BIN names a release build of svix-server (bench/README.md says
# how to build one). Idempotent: anything already running is left as is. State and logs go to
# SVIX_WORK_DIR (.cache/svix by default). The last lines printed are `export SVIX_URL=...` and
# `export SVIX_TOKEN=...`, so
#   eval "$(bench/peers/svix-run.sh | tail -2)"
# sets them in the calling shell.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BASE=${SVIX_WORK_DIR:-$(cd "$HERE/../.." && pwd)/.cache/svix}
cd /

RUN=$BASE/run
DATA=$BASE/data
SVIX_BIN=${SVIX_BIN:?SVIX_BIN must name a svix-server binary}

PG_PORT=${PG_PORT:-55432}
REDIS_PORT=${REDIS_PORT:-56379}
SVIX_PORT=${SVIX_PORT:-8071}
# memory or redis (default of Svix itself: redis)
SVIX_QUEUE=${SVIX_QUEUE:-redis}
# memory (Svix default), redis or none
SVIX_CACHE=${SVIX_CACHE:-memory}

PEER_NAME=svix-run
PEER_BIN=$SVIX_BIN
# shellcheck source=bench/peers/peer-kit.sh
. "$HERE/peer-kit.sh"
stores_start "$BASE" "$PG_PORT" "$REDIS_PORT" svix

# --- svix-server -----------------------------------------------------------------------------
kept_secrets "$DATA/svix-secrets.env" SVIX_JWT_SECRET SVIX_MAIN_SECRET
set -a
. "$DATA/svix-secrets.env"
SVIX_LISTEN_ADDRESS=127.0.0.1:$SVIX_PORT
SVIX_DB_DSN=postgresql://svix:svix@127.0.0.1:$PG_PORT/svix
SVIX_REDIS_DSN=redis://127.0.0.1:$REDIS_PORT
SVIX_QUEUE_TYPE=$SVIX_QUEUE
SVIX_CACHE_TYPE=$SVIX_CACHE
SVIX_WHITELIST_SUBNETS="[127.0.0.1/32]"
SVIX_LOG_LEVEL=${SVIX_LOG_LEVEL:-info}
set +a

SVIX_URL=http://127.0.0.1:$SVIX_PORT
peer_log "svix-server on $SVIX_URL (queue=$SVIX_QUEUE cache=$SVIX_CACHE)"
daemon_start "$BASE" svix --run-migrations --wait-for 30
wait_healthy "$BASE" "$SVIX_URL/api/v1/health/" svix

SVIX_TOKEN=$(cd "$RUN/cwd" && "$SVIX_BIN" jwt generate 2>/dev/null | sed -n 's/^Token (Bearer): //p')
[ -n "$SVIX_TOKEN" ] || { peer_log "could not generate a token"; exit 1; }
echo "export SVIX_URL=$SVIX_URL"
echo "export SVIX_TOKEN=$SVIX_TOKEN"
