# Sourced by the peers' run and stop scripts. A peer runs beside a PostgreSQL and a Redis of its
# own, bound to 127.0.0.1, with its state and logs under BASE (data/, logs/, run/); each peer keeps
# its own pair on its own ports, so one peer's database never holds the other's rows. The caller
# sets PEER_NAME (for log lines) and, to start a peer, PEER_BIN (the peer's executable).

peer_log() { echo "[$PEER_NAME] $*" >&2; }

wait_port() { # host port seconds
    local i
    for ((i = 0; i < $3 * 10; i++)); do
        (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

stores_pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

# stores_start BASE PG_PORT REDIS_PORT ROLE: checks PEER_BIN, then starts PostgreSQL with a role
# and a database of that name (password = the name), and Redis with AOF persistence (fsync every
# second), as Svix recommends for its queue; Convoy gets the same.
stores_start() {
    local base=$1 pg_port=$2 redis_port=$3 role=$4
    local logs=$base/logs run=$base/run data=$base/data
    mkdir -p "$logs" "$run/cwd" "$data"
    if [ ! -x "$PEER_BIN" ]; then
        peer_log "no executable at $PEER_BIN; build it first (bench/README.md)"
        return 1
    fi
    if ! command -v redis-server >/dev/null || [ -z "$(stores_pg_bin)" ]; then
        peer_log "installing postgresql and redis-server with apt-get"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql redis-server >>"$logs/apt.log" 2>&1
        # never auto-start them as system services
        systemctl disable postgresql redis-server >/dev/null 2>&1 || true
    fi
    local pg_bin pgdata=$data/pg pgsock=$run/pgsock
    pg_bin=$(stores_pg_bin)
    mkdir -p "$pgsock"
    chown postgres:postgres "$pgsock"
    if [ ! -s "$pgdata/PG_VERSION" ]; then
        peer_log "initdb $pgdata"
        install -d -o postgres -g postgres -m 700 "$pgdata"
        runuser -u postgres -- "$pg_bin/initdb" -D "$pgdata" -U postgres --auth-local=peer \
            --auth-host=scram-sha-256 -E UTF8 >>"$logs/postgres-initdb.log" 2>&1
    fi
    touch "$logs/postgres.log"
    chown postgres:postgres "$logs/postgres.log"
    if runuser -u postgres -- "$pg_bin/pg_ctl" -D "$pgdata" status >/dev/null 2>&1; then
        peer_log "postgres already running"
    else
        peer_log "starting postgres on 127.0.0.1:$pg_port"
        runuser -u postgres -- "$pg_bin/pg_ctl" -D "$pgdata" -l "$logs/postgres.log" -w -t 60 \
            -o "-c listen_addresses=127.0.0.1 -p $pg_port -c unix_socket_directories=$pgsock" start >/dev/null
    fi
    psql_admin() { runuser -u postgres -- psql -h "$pgsock" -p "$pg_port" -U postgres -XAtq "$@"; }
    if [ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname='$role'")" != 1 ]; then
        psql_admin -c "CREATE ROLE $role LOGIN PASSWORD '$role'"
    fi
    if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname='$role'")" != 1 ]; then
        psql_admin -c "CREATE DATABASE $role OWNER $role"
    fi

    mkdir -p "$data/redis"
    if redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null | grep -q PONG; then
        peer_log "redis already running"
    else
        peer_log "starting redis on 127.0.0.1:$redis_port"
        redis-server --bind 127.0.0.1 --port "$redis_port" --daemonize yes \
            --pidfile "$run/redis.pid" --logfile "$logs/redis.log" --dir "$data/redis" \
            --appendonly yes --appendfsync everysec --save "" --maxmemory-policy noeviction
        wait_port 127.0.0.1 "$redis_port" 30 || {
            peer_log "redis did not come up"
            return 1
        }
    fi
}

# stores_stop BASE REDIS_PORT: stops what stores_start started. Idempotent.
stores_stop() {
    local base=$1 redis_port=$2
    local run=$base/run data=$base/data pid pg_bin
    if [ -s "$run/redis.pid" ] && kill -0 "$(cat "$run/redis.pid")" 2>/dev/null; then
        pid=$(cat "$run/redis.pid")
        peer_log "stopping redis (pid $pid)"
        redis-cli -h 127.0.0.1 -p "$redis_port" shutdown >/dev/null 2>&1 || kill -TERM "$pid"
        for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    else
        peer_log "redis not running"
    fi
    rm -f "$run/redis.pid"

    pg_bin=$(stores_pg_bin)
    if [ -n "$pg_bin" ] && [ -s "$data/pg/PG_VERSION" ] &&
        runuser -u postgres -- "$pg_bin/pg_ctl" -D "$data/pg" status >/dev/null 2>&1; then
        peer_log "stopping postgres"
        runuser -u postgres -- "$pg_bin/pg_ctl" -D "$data/pg" -m fast -w -t 60 stop >/dev/null
    else
        peer_log "postgres not running"
    fi
}

# daemon_start BASE NAME ARGS…: runs PEER_BIN with ARGS in the background, unless it runs already,
# from an empty working directory (so no stray configuration file is picked up), its output in
# logs/NAME.log. The executable is recorded beside the pid, so stopping needs neither.
daemon_start() {
    local base=$1 name=$2
    shift 2
    if start-stop-daemon --status --pidfile "$base/run/$name.pid" --exec "$PEER_BIN" 2>/dev/null; then
        peer_log "$name already running (pid $(cat "$base/run/$name.pid"))"
    else
        peer_log "starting $name"
        echo "$PEER_BIN" >"$base/run/$name.exe"
        start-stop-daemon --start --background --make-pidfile --pidfile "$base/run/$name.pid" \
            --chdir "$base/run/cwd" --output "$base/logs/$name.log" --exec "$PEER_BIN" -- "$@"
    fi
}

# daemon_stop BASE NAME: SIGTERM lets it finish what it holds; SIGKILL after 30 s. Idempotent.
# The pid counts only while it is still the recorded executable's, so a reused pid is left alone.
daemon_stop() {
    local base=$1 name=$2 exe
    exe=$(cat "$base/run/$name.exe" 2>/dev/null)
    if [ -n "$exe" ] && [ -s "$base/run/$name.pid" ] &&
        start-stop-daemon --status --pidfile "$base/run/$name.pid" --exec "$exe"; then
        peer_log "stopping $name (pid $(cat "$base/run/$name.pid"))"
        start-stop-daemon --stop --quiet --pidfile "$base/run/$name.pid" --exec "$exe" --retry TERM/30/KILL/5
    else
        peer_log "$name not running"
    fi
    rm -f "$base/run/$name.pid" "$base/run/$name.exe"
}

# wait_healthy BASE URL NAME…: waits up to 60 s for URL to answer 2xx, failing as soon as one of
# the named daemons has exited.
wait_healthy() {
    local base=$1 url=$2 name i
    shift 2
    for ((i = 0; i < 600; i++)); do
        curl -fsS -o /dev/null -m 2 "$url" 2>/dev/null && { peer_log "healthy"; return 0; }
        for name in "$@"; do
            if ! start-stop-daemon --status --pidfile "$base/run/$name.pid" --exec "$PEER_BIN"; then
                peer_log "$name exited; see $base/logs/$name.log"
                tail -20 "$base/logs/$name.log" >&2
                return 1
            fi
        done
        sleep 0.1
    done
    peer_log "not healthy after 60 s; see $base/logs/"
    return 1
}

# kept_secrets FILE NAME…: FILE holds NAME=<random> for each NAME, made on the first call and kept,
# since a peer's database outlives its process (a secret that changed would not open it again).
kept_secrets() {
    local file=$1 name
    shift
    [ -s "$file" ] && return 0
    touch "$file" && chmod 600 "$file"
    for name in "$@"; do
        printf '%s=%s\n' "$name" "$(head -c 32 /dev/urandom | base64 | tr -dc A-Za-z0-9)" >>"$file"
    done
}
