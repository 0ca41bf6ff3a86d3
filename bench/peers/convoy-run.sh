#!/usr/bin/env bash
# Starts Convoy (its API server and its agent, which dispatches the webhooks) with its PostgreSQL
# and Redis, all bound to 127.0.0.1, in the background, for bench/peer-latency.ts. CONVOY_BIN
# names a build of Convoy's `cmd` (bench/README.md says how to build one). Idempotent: anything
# already running is left as is. State and logs go to CONVOY_WORK_DIR (.cache/convoy by default).
# The first start makes an organisation and an outgoing project, kept for later starts.
# The last lines printed are `export CONVOY_URL=...`, `export CONVOY_PROJECT=...` and
# `export CONVOY_TOKEN=...` (the project's API key), so
#   eval "$(bench/peers/convoy-run.sh | tail -3)"
# sets them in the calling shell.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BASE=${CONVOY_WORK_DIR:-$(cd "$HERE/../.." && pwd)/.cache/convoy}
cd /

LOGS=$BASE/logs
RUN=$BASE/run
DATA=$BASE/data
CONVOY_BIN=${CONVOY_BIN:?CONVOY_BIN must name a Convoy binary}

PG_PORT=${PG_PORT:-55433}
REDIS_PORT=${REDIS_PORT:-56380}
CONVOY_PORT=${CONVOY_PORT:-5005}
AGENT_PORT=${AGENT_PORT:-5008}

PEER_NAME=convoy-run
PEER_BIN=$CONVOY_BIN
# shellcheck source=bench/peers/peer-kit.sh
. "$HERE/peer-kit.sh"
stores_start "$BASE" "$PG_PORT" "$REDIS_PORT" convoy

# --- configuration ---------------------------------------------------------------------------
kept_secrets "$DATA/convoy-secrets.env" CONVOY_JWT_SECRET CONVOY_JWT_REFRESH_SECRET
set -a
. "$DATA/convoy-secrets.env"
CONVOY_DB_TYPE=postgres
CONVOY_DB_SCHEME=postgres
CONVOY_DB_HOST=127.0.0.1
CONVOY_DB_PORT=$PG_PORT
CONVOY_DB_USERNAME=convoy
CONVOY_DB_PASSWORD=convoy
CONVOY_DB_DATABASE=convoy
CONVOY_DB_OPTIONS="sslmode=disable&connect_timeout=30"
# Unbounded by default, the server's and the agent's pools together outgrow PostgreSQL's 100
# connections from about 200 events/s, and calls fail.
CONVOY_DB_MAX_OPEN_CONN=40
CONVOY_REDIS_SCHEME=redis
CONVOY_REDIS_HOST=127.0.0.1
CONVOY_REDIS_PORT=$REDIS_PORT
CONVOY_JWT_REALM_ENABLED=true
# The Redis queue: Convoy's Postgres queue needs a commercial licence.
CONVOY_QUEUE_PROVIDER=redis
# Convoy refuses loopback destinations by default; the bench's receiver is on 127.0.0.1.
CONVOY_DISPATCHER_BLOCK_LIST=192.0.2.0/32
# Its API and ingest limits (1,000 by default) would refuse part of the 1,000 events/s turn: the
# bench measures how it delivers, not its rate limiter.
CONVOY_API_RATE_LIMIT=1000000
CONVOY_INSTANCE_INGEST_RATE=1000000
set +a

if ! (cd "$RUN/cwd" && "$CONVOY_BIN" migrate up) >>"$LOGS/migrate.log" 2>&1; then
    peer_log "migrations failed; see $LOGS/migrate.log"
    tail -20 "$LOGS/migrate.log" >&2
    exit 1
fi

# --- the server and the agent ----------------------------------------------------------------
daemon_start "$BASE" server server --port "$CONVOY_PORT"
daemon_start "$BASE" agent agent --port "$AGENT_PORT"
CONVOY_URL=http://127.0.0.1:$CONVOY_PORT
wait_healthy "$BASE" "$CONVOY_URL/health" server agent

# --- an organisation and a project, once ----------------------------------------------------
# The server makes its one community-edition user at its first start (superuser@default.com,
# password "default"); the bench logs in as it.
PROJECT=$DATA/convoy-project.env
if [ ! -s "$PROJECT" ]; then
    json() { node -e 'let v = JSON.parse(process.argv[1]); for (const k of process.argv[2].split(".")) v = v[k]; console.log(v)' "$@"; }
    ui() { # path body
        curl -fsS -X POST "$CONVOY_URL/ui$1" -H "Authorization: Bearer ${jwt:-}" \
            -H 'Content-Type: application/json' -d "$2"
    }
    jwt=$(json "$(ui /auth/login '{"username":"superuser@default.com","password":"default"}')" data.token.access_token)
    org=$(json "$(ui /organisations '{"name":"bench"}')" data.uid)
    created=$(ui "/organisations/$org/projects" '{"name":"bench","type":"outgoing","config":{}}')
    touch "$PROJECT" && chmod 600 "$PROJECT"
    printf 'CONVOY_PROJECT=%s\nCONVOY_TOKEN=%s\n' "$(json "$created" data.project.uid)" \
        "$(json "$created" data.api_key.key)" >"$PROJECT"
fi
. "$PROJECT"
echo "export CONVOY_URL=$CONVOY_URL"
echo "export CONVOY_PROJECT=$CONVOY_PROJECT"
echo "export CONVOY_TOKEN=$CONVOY_TOKEN"
