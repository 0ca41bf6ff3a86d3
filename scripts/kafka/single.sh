# Sourced by kafka.sh: the single broker (the default mode), whose work dir is $KAFKA_WORK_DIR itself.

use_single() {
  use_node "$BASE" 1 "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"
  CLUSTER_ID_FILE="$BASE/cluster-id"
  LOCK_FILE="$BASE/.lock"
  VOTERS="1@$HOST:$KAFKA_CONTROLLER_PORT"
  LISTENER_CONF="listeners=PLAINTEXT://$HOST:$KAFKA_PORT,CONTROLLER://$HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$HOST:$KAFKA_PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT"
}

start() {
  prepare_start
  launch
  wait_ready "$LAUNCHED_PID"
  echo "Kafka running (pid $LAUNCHED_PID) on $HOST:$PORT"
}

reset() {
  stop_broker
  rm -rf "$DATA" "$OFFSET_FILE" "$VERSION_FILE"
  echo "Kafka data deleted ($DATA); jars kept"
}

single_command() {
  use_single
  case "${1:-}" in
    fetch)  take_lock; fetch ;;
    start)  take_lock; start ;;
    stop)   take_lock; stop_broker ;;
    status) status ;;
    reset)  take_lock; reset ;;
    -h|--help|help) usage ;;
    *) usage >&2; exit 2 ;;
  esac
}
