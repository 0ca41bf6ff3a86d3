#!/usr/bin/env bash
# Stops svix-server, Redis and PostgreSQL started by svix-run.sh. Idempotent.
set -uo pipefail
BASE=${SVIX_WORK_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/.cache/svix}
cd /

RUN=$BASE/run
DATA=$BASE/data
REDIS_PORT=${REDIS_PORT:-56379}
log() { echo "[svix-stop] $*" >&2; }

# svix-server: SIGTERM lets it finish in-flight deliveries (normally < 10 s); SIGKILL after 30 s.
SVIX_BIN=${SVIX_BIN:?SVIX_BIN must name a svix-server binary}
if [ -s "$RUN/svix.pid" ] && start-stop-daemon --status --pidfile "$RUN/svix.pid" --exec "$SVIX_BIN"; then
    log "stopping svix-server (pid $(cat "$RUN/svix.pid"))"
    start-stop-daemon --stop --quiet --pidfile "$RUN/svix.pid" --exec "$SVIX_BIN" --retry TERM/30/KILL/5
else
    log "svix-server not running"
fi
rm -f "$RUN/svix.pid"

# Redis
if [ -s "$RUN/redis.pid" ] && kill -0 "$(cat "$RUN/redis.pid")" 2>/dev/null; then
    pid=$(cat "$RUN/redis.pid")
    log "stopping redis (pid $pid)"
    redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown >/dev/null 2>&1 || kill -TERM "$pid"
    for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
else
    log "redis not running"
fi
rm -f "$RUN/redis.pid"

# PostgreSQL
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -n "$PG_BIN" ] && [ -s "$DATA/pg/PG_VERSION" ] &&
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$DATA/pg" status >/dev/null 2>&1; then
    log "stopping postgres"
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$DATA/pg" -m fast -w -t 60 stop >/dev/null
else
    log "postgres not running"
fi
exit 0
