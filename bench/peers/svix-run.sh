#!/usr/bin/env bash
# Starts Svix's server with its PostgreSQL and Redis, all bound to 127.0.0.1, in the background,
# for bench/peer-latency.ts. SVIX_BIN names a release build of svix-server (bench/README.md says
# how to build one). Idempotent: anything already running is left as is. State and logs go to
# SVIX_WORK_DIR (.cache/svix by default). The last lines printed are `export SVIX_URL=...` and
# `export SVIX_TOKEN=...`, so
#   eval "$(bench/peers/svix-run.sh | tail -2)"
# sets them in the calling shell.
set -euo pipefail
BASE=${SVIX_WORK_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/.cache/svix}
cd /

LOGS=$BASE/logs
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

mkdir -p "$LOGS" "$RUN" "$DATA"
log() { echo "[svix-run] $*" >&2; }

# --- prerequisites -------------------------------------------------------------------------
if ! command -v redis-server >/dev/null || ! ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
    log "installing postgresql and redis-server with apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql redis-server >>"$LOGS/apt.log" 2>&1
    # never auto-start them as system services
    systemctl disable postgresql redis-server >/dev/null 2>&1 || true
fi
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
if [ ! -x "$SVIX_BIN" ]; then
    log "SVIX_BIN: no executable at $SVIX_BIN; build svix-server first (bench/README.md)"
    exit 1
fi

wait_port() { # host port seconds
    local i
    for ((i = 0; i < $3 * 10; i++)); do
        (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# --- PostgreSQL ------------------------------------------------------------------------------
PGDATA=$DATA/pg
PGSOCK=$RUN/pgsock
mkdir -p "$PGSOCK"
chown postgres:postgres "$PGSOCK"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    log "initdb $PGDATA"
    install -d -o postgres -g postgres -m 700 "$PGDATA"
    runuser -u postgres -- "$PG_BIN/initdb" -D "$PGDATA" -U postgres --auth-local=peer \
        --auth-host=scram-sha-256 -E UTF8 >>"$LOGS/postgres-initdb.log" 2>&1
fi
touch "$LOGS/postgres.log"
chown postgres:postgres "$LOGS/postgres.log"
if runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; then
    log "postgres already running"
else
    log "starting postgres on 127.0.0.1:$PG_PORT"
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$LOGS/postgres.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -c unix_socket_directories=$PGSOCK" start >/dev/null
fi
psql_admin() { runuser -u postgres -- psql -h "$PGSOCK" -p "$PG_PORT" -U postgres -XAtq "$@"; }
if [ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname='svix'")" != 1 ]; then
    psql_admin -c "CREATE ROLE svix LOGIN PASSWORD 'svix'"
fi
if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname='svix'")" != 1 ]; then
    psql_admin -c "CREATE DATABASE svix OWNER svix"
fi

# --- Redis -----------------------------------------------------------------------------------
mkdir -p "$DATA/redis"
if redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG; then
    log "redis already running"
else
    log "starting redis on 127.0.0.1:$REDIS_PORT"
    # AOF persistence (fsync every second) as Svix recommends for the Redis queue; no eviction.
    redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --daemonize yes \
        --pidfile "$RUN/redis.pid" --logfile "$LOGS/redis.log" --dir "$DATA/redis" \
        --appendonly yes --appendfsync everysec --save "" --maxmemory-policy noeviction
    wait_port 127.0.0.1 "$REDIS_PORT" 30 || { log "redis did not come up"; exit 1; }
fi

# --- svix-server -----------------------------------------------------------------------------
# Secrets are generated once and kept, because main_secret can never change for a database.
SECRETS=$DATA/svix-secrets.env
if [ ! -s "$SECRETS" ]; then
    touch "$SECRETS" && chmod 600 "$SECRETS"
    printf 'SVIX_JWT_SECRET=%s\nSVIX_MAIN_SECRET=%s\n' \
        "$(head -c 32 /dev/urandom | base64 | tr -dc A-Za-z0-9)" \
        "$(head -c 32 /dev/urandom | base64 | tr -dc A-Za-z0-9)" >"$SECRETS"
fi
set -a
. "$SECRETS"
SVIX_LISTEN_ADDRESS=127.0.0.1:$SVIX_PORT
SVIX_DB_DSN=postgresql://svix:svix@127.0.0.1:$PG_PORT/svix
SVIX_REDIS_DSN=redis://127.0.0.1:$REDIS_PORT
SVIX_QUEUE_TYPE=$SVIX_QUEUE
SVIX_CACHE_TYPE=$SVIX_CACHE
SVIX_WHITELIST_SUBNETS="[127.0.0.1/32]"
SVIX_LOG_LEVEL=${SVIX_LOG_LEVEL:-info}
set +a

SVIX_URL=http://127.0.0.1:$SVIX_PORT
healthy() { curl -fsS -o /dev/null -m 2 "$SVIX_URL/api/v1/health/" 2>/dev/null; }
if start-stop-daemon --status --pidfile "$RUN/svix.pid" --exec "$SVIX_BIN" 2>/dev/null; then
    log "svix-server already running (pid $(cat "$RUN/svix.pid"))"
else
    log "starting svix-server on $SVIX_URL (queue=$SVIX_QUEUE cache=$SVIX_CACHE)"
    mkdir -p "$RUN/svix-cwd"   # empty cwd: no stray config.toml / .env gets picked up
    start-stop-daemon --start --background --make-pidfile --pidfile "$RUN/svix.pid" \
        --chdir "$RUN/svix-cwd" --output "$LOGS/svix-server.log" \
        --exec "$SVIX_BIN" -- --run-migrations --wait-for 30
fi
for ((i = 0; i < 600; i++)); do
    healthy && break
    if ! start-stop-daemon --status --pidfile "$RUN/svix.pid" --exec "$SVIX_BIN"; then
        log "svix-server exited; see $LOGS/svix-server.log"
        tail -20 "$LOGS/svix-server.log" >&2
        exit 1
    fi
    sleep 0.1
done
healthy || { log "svix-server not healthy after 60 s; see $LOGS/svix-server.log"; exit 1; }
log "svix-server healthy"

SVIX_TOKEN=$(cd "$RUN/svix-cwd" && "$SVIX_BIN" jwt generate 2>/dev/null | sed -n 's/^Token (Bearer): //p')
[ -n "$SVIX_TOKEN" ] || { log "could not generate a token"; exit 1; }
echo "export SVIX_URL=$SVIX_URL"
echo "export SVIX_TOKEN=$SVIX_TOKEN"
