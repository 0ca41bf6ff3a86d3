#!/usr/bin/env bash
# `npm start`: the whole pipeline on this machine. Installs what is missing, starts the local
# Kafka broker, builds, then runs ingest, router, delivery and the delivery console in one process
# (the shape for one machine), and a demo webhook receiver that prints what it receives.
# `npm run start:split` (this script with --split) runs each service as its own process instead, as
# Kubernetes does. Ctrl-C stops everything this script started.
set -euo pipefail
cd "$(dirname "$0")/.."
ALL_SERVICES=ingest,router,delivery,console
split=false
for arg in "$@"; do
  case "$arg" in
    --split) split=true ;;
    *) echo "unknown option $arg: npm start takes only --split (npm run start:split)" >&2; exit 2 ;;
  esac
done
if $split && [ -n "${SWITCHYARD_SERVICES:-}" ]; then
  echo "SWITCHYARD_SERVICES chooses the services of one process, and --split runs each as its own: use one of them" >&2
  exit 2
fi
$split || SWITCHYARD_SERVICES="${SWITCHYARD_SERVICES:-$ALL_SERVICES}"
SWITCHYARD_SERVICES_STARTED="${SWITCHYARD_SERVICES:-$ALL_SERVICES}"
started() { [[ ",$SWITCHYARD_SERVICES_STARTED," == *",$1,"* ]]; }
# The services' V8 flags (*_NODE_FLAGS) and glibc malloc settings, as in the image and the
# Kubernetes manifests; exported so the services' malloc sees them.
set -a
# shellcheck source=config/runtime-flags.env
source config/runtime-flags.env
set +a

[ -x node_modules/.bin/node ] || npm ci --no-audit --no-fund
export PATH="$PWD/node_modules/.bin:$PATH"

DEMO_RECEIVER_PORT="${DEMO_RECEIVER_PORT:-9000}"
mkdir -p .cache
if [ -n "${WORKSPACE_CONFIG:-}" ]; then
  # File mode: the services route by that file, and the management API only reads it.
  export WORKSPACE_CONFIG
  workspace="the file $WORKSPACE_CONFIG"
  seeded=true
else
  # Topic mode: the console seeds an empty workspace topic from the example, which sends to the
  # demo receiver: follow it when DEMO_RECEIVER_PORT moves it.
  WORKSPACE_SEED_FILE="$PWD/.cache/workspace.demo.yaml"
  sed "s#http://127.0.0.1:9000/#http://127.0.0.1:$DEMO_RECEIVER_PORT/#" config/workspace.example.yaml >"$WORKSPACE_SEED_FILE"
  export WORKSPACE_SEED_FILE
  if started console; then
    workspace="the workspace topic, seeded from config/workspace.example.yaml when empty"
    seeded=true
  else
    # Without the console an empty topic stays empty: the demo's write key may not be there.
    workspace="the workspace topic, which the console seeds when empty and is not running here"
    seeded=false
  fi
fi
# The local broker keeps the workspace topic between runs, so its secrets' key is kept too.
if [ -z "${WORKSPACE_ENCRYPTION_KEYS:-}" ]; then
  [ -s .cache/workspace-encryption-keys ] ||
    node -e "console.log('demo:' + require('crypto').randomBytes(32).toString('base64'))" >.cache/workspace-encryption-keys
  WORKSPACE_ENCRYPTION_KEYS="$(cat .cache/workspace-encryption-keys)"
fi
export WORKSPACE_ENCRYPTION_KEYS DEMO_RECEIVER_PORT
export ADMIN_TOKEN="${ADMIN_TOKEN:-demo-admin-token-change-me}"
export LOG_LEVEL="${LOG_LEVEL:-warn}"
# switchyard_build_info{commit}: the checked-out commit.
export SWITCHYARD_COMMIT="${SWITCHYARD_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}"
export HOST="${HOST:-127.0.0.1}"

# shellcheck source=scripts/lib/local-env.sh
source scripts/lib/local-env.sh

pids=()
stopping=0
stop_all() {
  trap - INT TERM EXIT
  stopping=1
  echo; echo "stopping…"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait "${pids[@]}" 2>/dev/null || true
  stop_started_kafka
  echo "stopped"
}
trap stop_all INT TERM EXIT

echo "building…"
npm run --silent build

DEMO_SHARED_SECRET="${DEMO_SHARED_SECRET:-demo-shared-secret}" node -r @swc-node/register scripts/demo-receiver.ts & pids+=($!)
if ! $split; then
  # One process runs the services SWITCHYARD_SERVICES lists, each on its usual port; the console
  # reaches ingest and delivery inside it.
  export SWITCHYARD_SERVICES INGEST_PORT="${INGEST_PORT:-8080}" ROUTER_PORT="${ROUTER_PORT:-8081}" \
    DELIVERY_PORT="${DELIVERY_PORT:-8082}" CONSOLE_PORT="${CONSOLE_PORT:-8083}"
  node $ALL_IN_ONE_NODE_FLAGS dist/apps/switchyard/src/main.js & pids+=($!)
else
  PORT="${INGEST_PORT:-8080}" node $INGEST_NODE_FLAGS dist/apps/ingest/src/main.js & pids+=($!)
  PORT="${ROUTER_PORT:-8081}" node $ROUTER_NODE_FLAGS dist/apps/router/src/main.js & pids+=($!)
  PORT="${DELIVERY_PORT:-8082}" node $DELIVERY_NODE_FLAGS dist/apps/delivery/src/main.js & pids+=($!)
  PORT="${CONSOLE_PORT:-8083}" CONSOLE_DELIVERY_URL="http://127.0.0.1:${DELIVERY_PORT:-8082}" \
    CONSOLE_INGEST_URL="http://127.0.0.1:${INGEST_PORT:-8080}" node $CONSOLE_NODE_FLAGS dist/apps/console/src/main.js & pids+=($!)
fi

declare -A url=(
  [ingest]="http://127.0.0.1:${INGEST_PORT:-8080}"
  [router]="http://127.0.0.1:${ROUTER_PORT:-8081}"
  [delivery]="http://127.0.0.1:${DELIVERY_PORT:-8082}"
  [console]="http://127.0.0.1:${CONSOLE_PORT:-8083}"
)
if $split; then shape="each service its own process"; else shape="one process: SWITCHYARD_SERVICES=$SWITCHYARD_SERVICES"; fi
not_ready() {
  local name
  for name in ${SWITCHYARD_SERVICES_STARTED//,/ }; do curl -fs "${url[$name]}/health/ready" >/dev/null 2>&1 || echo "$name"; done
}
for _ in $(seq 1 120); do
  [ -z "$(not_ready)" ] && break
  sleep 0.5
done
if [ -n "$(not_ready)" ]; then
  echo "not ready after 60 s: $(not_ready | tr '\n' ' ')— see the log lines above" >&2
  exit 1
fi

services=""
for name in ingest router delivery; do
  started "$name" && services+="  $name ${url[$name]}"
done
echo
echo "Switchyard is running ($shape; workspace: $workspace; Kafka: $KAFKA_BROKERS)."
echo "$services"
echo "  demo webhook receiver http://127.0.0.1:$DEMO_RECEIVER_PORT"
if started console; then
  cat <<MSG
  console  ${url[console]}   (log in with the admin token; set up sources and destinations there)
  management API  ${url[console]}/api/v1   (document: /api/v1/openapi.json)
  admin token: $ADMIN_TOKEN   (set ADMIN_TOKEN=… before npm start to change it)
MSG
fi
if started ingest && $seeded; then
  cat <<MSG

Send an event (the demo receiver below prints it, signed, with its static header):

  curl -u demo-website-write-key: -H 'Content-Type: application/json' \\
    ${url[ingest]}/v1/track -d '{"userId":"user-1","event":"Order Completed","properties":{"revenue":42}}'
MSG
fi
cat <<MSG

See it in Kafka:   npm run kafka:tail -- events
Ctrl-C stops everything.
MSG
status=0
wait -n "${pids[@]}" || status=$?
# Ctrl-C reaches every process at once, so a service may finish its graceful stop (exit 0, or
# 130/143 for SIGINT/SIGTERM) before this script's own trap runs: that is a stop, not a failure.
case "$stopping:$status" in
  1:*|0:0|0:130|0:143) exit 0 ;;
  *) echo "a Switchyard process exited unexpectedly (status $status, its log is above); stopping the others" >&2
     exit 1 ;;
esac
