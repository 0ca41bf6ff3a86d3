# Sourced by kafka.sh: several KRaft nodes on this machine, for replication and failover tests.

KAFKA_CLUSTER_SIZE="${KAFKA_CLUSTER_SIZE:-3}"
KAFKA_CLUSTER_PORT="${KAFKA_CLUSTER_PORT:-19092}"
KAFKA_CLUSTER_DIR="${KAFKA_CLUSTER_DIR:-$REPO_ROOT/.kafka-cluster}"

use_cluster() {
  mkdir -p "$KAFKA_CLUSTER_DIR"
  CLUSTER_WORK="$(cd "$KAFKA_CLUSTER_DIR" && pwd)"
  LOCK_FILE="$CLUSTER_WORK/.lock"
  CLUSTER_ID_FILE="$CLUSTER_WORK/cluster-id"
  (( KAFKA_CLUSTER_SIZE >= 1 && KAFKA_CLUSTER_SIZE <= 9 )) || die "KAFKA_CLUSTER_SIZE must be 1-9"
  REPLICATION=$(( KAFKA_CLUSTER_SIZE < 3 ? KAFKA_CLUSTER_SIZE : 3 ))
  MIN_ISR=$(( KAFKA_CLUSTER_SIZE < 2 ? KAFKA_CLUSTER_SIZE : 2 ))
  # What docs/operations.md (Kafka outages) recommends for a cluster: Kafka's own 9 s session, with
  # its 2 s heartbeat. A dead node is fenced, and its partitions move, that long after its last
  # heartbeat; a shorter session fences live nodes whose heartbeat is late on a loaded host.
  if (( KAFKA_CLUSTER_SIZE > 1 )); then BROKER_SESSION_TIMEOUT_MS=9000; fi
  local i voters=()
  for i in $(seq 1 "$KAFKA_CLUSTER_SIZE"); do voters+=("$i@$HOST:$(( KAFKA_CLUSTER_PORT + 100 + i - 1 ))"); done
  VOTERS="$(IFS=,; echo "${voters[*]}")"
}

use_cluster_node() {
  local i="$1"
  use_node "$CLUSTER_WORK/node-$i" "$i" $(( KAFKA_CLUSTER_PORT + i - 1 )) $(( KAFKA_CLUSTER_PORT + 100 + i - 1 ))
  LISTENER_CONF="listeners=PLAINTEXT://$HOST:$PORT,CONTROLLER://$HOST:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$HOST:$PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT"
}

cluster_brokers() {
  local i list=()
  for i in $(seq 1 "$KAFKA_CLUSTER_SIZE"); do list+=("$HOST:$(( KAFKA_CLUSTER_PORT + i - 1 ))"); done
  (IFS=,; echo "${list[*]}")
}

# Launches every node that is not running (all of them at first, a killed one later), then
# waits for each: a KRaft node only reports started once a quorum of controllers is up.
cluster_start() {
  prepare_start
  local i pids=()
  for i in $(seq 1 "$KAFKA_CLUSTER_SIZE"); do
    use_cluster_node "$i"
    launch
    pids[i]="$LAUNCHED_PID"
  done
  for i in $(seq 1 "$KAFKA_CLUSTER_SIZE"); do
    use_cluster_node "$i"
    wait_ready "${pids[i]}"
  done
  echo "Kafka cluster running: $(cluster_brokers)"
}

# All nodes at once: one by one, the last would wait for a controller quorum that is gone.
cluster_stop() {
  local i
  for i in $(seq 1 "$KAFKA_CLUSTER_SIZE"); do
    ( use_cluster_node "$i"; stop_broker >/dev/null ) &
  done
  wait
  echo "Kafka cluster stopped"
}

cluster_status() {
  local i down=()
  for i in $(seq 1 "$KAFKA_CLUSTER_SIZE"); do
    use_cluster_node "$i"
    status >/dev/null || down+=("$i")
  done
  if (( ${#down[@]} == 0 )); then echo "running: $(cluster_brokers)"; return 0; fi
  echo "stopped nodes: ${down[*]}"
  return 1
}

cluster_kill() {
  local i="${1:-}"
  [[ "$i" =~ ^[0-9]+$ ]] && (( i >= 1 && i <= KAFKA_CLUSTER_SIZE )) || die "cluster kill needs a node number 1-$KAFKA_CLUSTER_SIZE"
  use_cluster_node "$i"
  local pid
  pid="$(broker_pid)"
  [[ -n "$pid" ]] || { echo "node $i not running"; return 0; }
  kill -KILL "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  rm -f "$PID_FILE"
  echo "node $i killed (pid $pid)"
}

cluster_reset() {
  cluster_stop
  rm -rf "$CLUSTER_WORK"/node-* "$CLUSTER_ID_FILE"
  echo "Kafka cluster data deleted ($CLUSTER_WORK); jars kept"
}

cluster_command() {
  use_cluster
  case "${1:-}" in
    start)  take_lock; cluster_start ;;
    stop)   take_lock; cluster_stop ;;
    status) cluster_status ;;
    kill)   cluster_kill "${2:-}" ;;
    reset)  take_lock; cluster_reset ;;
    *) usage >&2; exit 2 ;;
  esac
}
