#!/usr/bin/env bash
# Local single-node Apache Kafka broker (KRaft: broker + controller in one JVM) for
# development and tests. No Docker: the broker jars come from Maven (see pom.xml beside
# this script) and run on plain `java`.
#
# Usage: scripts/kafka/kafka.sh fetch|start|stop|status|reset
#        scripts/kafka/kafka.sh cluster start|stop|status|reset|kill <node>
#        scripts/kafka/kafka.sh secure start|stop|status|reset
#
#   fetch   copy the broker jars into $KAFKA_WORK_DIR/libs (skipped when up to date)
#   start   fetch if needed, format storage once, start the broker in the background and
#           wait until it is ready (idempotent: a running broker is left alone)
#   stop    stop the broker (SIGTERM, SIGKILL after 30 s); no error if not running
#   status  print "running" and exit 0 when up, print "stopped" and exit 1 otherwise
#   reset   stop and delete the data dir (the jars are kept)
#
#   cluster   a KRaft cluster of $KAFKA_CLUSTER_SIZE nodes (broker + controller each) on this
#             machine, for replication and failover tests: node i listens on
#             $KAFKA_CLUSTER_PORT+i-1 (controller: +100). Topics default to replication
#             min(3, size) and min.insync.replicas min(2, size). `start` also restarts nodes
#             that died; `kill <node>` SIGKILLs one (1-based) to simulate a crash.
#   secure    one broker whose client listener is SASL_SSL (SCRAM-SHA-256 and -512) on
#             $KAFKA_SECURE_PORT, with a CA and broker certificate made with openssl and keytool
#             in $KAFKA_SECURE_DIR/tls (clients trust tls/ca.pem) and the SCRAM users admin
#             (inter-broker) and $KAFKA_SECURE_USER (password $KAFKA_SECURE_PASSWORD) created
#             when the storage is formatted. A second listener on $KAFKA_SECURE_PORT+2 is SSL
#             with client certificates required (mTLS): tls/client.pem and tls/client.key pass.
#
# Environment:
#   KAFKA_PORT             client listener port      (default 9092)
#   KAFKA_CONTROLLER_PORT  KRaft controller port     (default 9093)
#   KAFKA_WORK_DIR         jars, config, data, logs  (default <repo root>/.kafka)
#   KAFKA_HEAP_OPTS        JVM heap flags            (default -Xms256m -Xmx512m)
#   KAFKA_START_TIMEOUT    seconds to wait for ready (default 90)
#   JAVA_HOME              java to use (default: java on PATH)
#   KAFKA_CLUSTER_SIZE     nodes of `cluster`        (default 3)
#   KAFKA_CLUSTER_PORT     first client port         (default 19092)
#   KAFKA_CLUSTER_DIR      work dir of `cluster`     (default <repo root>/.kafka-cluster)
#   KAFKA_SECURE_PORT      SASL_SSL port of `secure` (default 29092; controller +1, mTLS +2)
#   KAFKA_SECURE_DIR       work dir of `secure`      (default <repo root>/.kafka-secure)
#   KAFKA_SECURE_USER / KAFKA_SECURE_PASSWORD  its client user (default switchyard / switchyard-secret)
# `cluster` and `secure` take their jars from $KAFKA_WORK_DIR/libs, like the single broker.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
POM="$SCRIPT_DIR/pom.xml"

KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_WORK_DIR="${KAFKA_WORK_DIR:-$REPO_ROOT/.kafka}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
STOP_TIMEOUT=30
HOST=127.0.0.1

if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
  JAVA="$JAVA_HOME/bin/java"
else
  JAVA=java
fi

KAFKA_CLUSTER_SIZE="${KAFKA_CLUSTER_SIZE:-3}"
KAFKA_CLUSTER_PORT="${KAFKA_CLUSTER_PORT:-19092}"
KAFKA_CLUSTER_DIR="${KAFKA_CLUSTER_DIR:-$REPO_ROOT/.kafka-cluster}"
KAFKA_SECURE_PORT="${KAFKA_SECURE_PORT:-29092}"
KAFKA_SECURE_DIR="${KAFKA_SECURE_DIR:-$REPO_ROOT/.kafka-secure}"
KAFKA_SECURE_USER="${KAFKA_SECURE_USER:-switchyard}"
KAFKA_SECURE_PASSWORD="${KAFKA_SECURE_PASSWORD:-switchyard-secret}"

mkdir -p "$KAFKA_WORK_DIR"
BASE="$(cd "$KAFKA_WORK_DIR" && pwd)"
LIBS="$BASE/libs"
MARKER="$LIBS/.pom.sha256"
TOOLS_LOG4J="$BASE/tools-log4j.properties"

# What the generated server.properties says beyond the common part; set by each mode.
VOTERS=""
LISTENER_CONF=""
REPLICATION=1
MIN_ISR=1
FORMAT_ARGS=()
# How long the controller waits for a broker's heartbeat before fencing it (every partition it
# leads then has no leader until it heartbeats again). With both cores loaded, a lone broker's
# heartbeat to its own controller missed Kafka's 9 s and the tests' produce calls got NOT_LEADER
# for seconds: a lone broker, or a cluster of one, gets 30 s. Not more: a node restarted after a
# SIGKILL cannot register again until its old session has expired, and gives up after 60 s
# (initial.broker.registration.timeout.ms), which a 60 s session made it do. A larger cluster
# keeps 9 s, so that a killed node's partitions move quickly.
BROKER_SESSION_TIMEOUT_MS=30000

# One broker's files and ports: the single broker's are the work dir itself (as always), a
# cluster node's or the secure broker's are their own dir.
use_node() {
  WORK="$1"; NODE_ID="$2"; PORT="$3"; CONTROLLER_PORT="$4"
  mkdir -p "$WORK"
  DATA="$WORK/data"
  LOGS="$WORK/logs"
  CONF="$WORK/server.properties"
  LOG4J="$WORK/log4j.properties"
  PID_FILE="$WORK/broker.pid"
  OUT_FILE="$LOGS/broker.out"
  SERVER_LOG="$LOGS/server.log"
  OFFSET_FILE="$WORK/server.log.offset"
}

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

log() { echo "kafka.sh: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# Serialise fetch/start/stop/reset for one work dir (e.g. parallel test jobs).
# fd 9 is closed for the broker itself so it never holds the lock.
take_lock() {
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$LOCK_FILE"
    flock -w 180 9 || die "could not lock $LOCK_FILE (another kafka.sh still busy?)"
  fi
}

port_open() {
  timeout 2 bash -c "exec 3<>/dev/tcp/$HOST/$1" 2>/dev/null
}

# Pid of the broker started from this work dir, if it is alive; empty otherwise.
broker_pid() {
  [[ -f "$PID_FILE" ]] || return 0
  local pid
  pid="$(tr -dc '0-9' <"$PID_FILE")"
  [[ -n "$pid" ]] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  # Guard against pid reuse: it must be our kafka.Kafka with our server.properties.
  if [[ -r "/proc/$pid/cmdline" ]]; then
    local cmd
    cmd="$(tr '\0' ' ' <"/proc/$pid/cmdline")"
    [[ "$cmd" == *kafka.Kafka* && "$cmd" == *"$CONF"* ]] || return 0
  fi
  echo "$pid"
}

pom_hash() { sha256sum "$POM" | cut -d' ' -f1; }

fetch() {
  local want
  want="$(pom_hash)"
  if [[ -f "$MARKER" && "$(cat "$MARKER")" == "$want" ]] && compgen -G "$LIBS/kafka_2.13-*.jar" >/dev/null; then
    return 0
  fi
  command -v mvn >/dev/null 2>&1 || die "mvn not found (Maven is needed to fetch the Kafka jars)"
  log "fetching Kafka jars into $LIBS ..."
  local tmp="$BASE/libs.tmp.$$"
  rm -rf "$tmp"
  # Debian's Maven 3.8 prints bare ANSI resets even with -q: strip them, keep real output.
  if ! mvn -B -q -Dstyle.color=never -f "$POM" dependency:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$tmp" 2>&1 \
      | sed -e 's/\x1b\[[0-9;]*m//g' | { grep -v '^[[:space:]]*$' || true; } >&2; then
    rm -rf "$tmp"
    die "mvn could not fetch the Kafka jars (see output above)"
  fi
  echo "$want" >"$tmp/.pom.sha256"
  rm -rf "$LIBS"
  mv "$tmp" "$LIBS"
  log "fetched $(find "$LIBS" -name '*.jar' | wc -l) jars"
}

write_config() {
  mkdir -p "$DATA" "$LOGS"
  cat >"$CONF" <<EOF
# Generated by scripts/kafka/kafka.sh: edits are overwritten on every start.
process.roles=broker,controller
node.id=$NODE_ID
controller.quorum.voters=$VOTERS
controller.listener.names=CONTROLLER
$LISTENER_CONF
log.dirs=$DATA
num.partitions=1
default.replication.factor=$REPLICATION
min.insync.replicas=$MIN_ISR
offsets.topic.replication.factor=$REPLICATION
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=$REPLICATION
transaction.state.log.min.isr=$MIN_ISR
transaction.state.log.num.partitions=1
group.initial.rebalance.delay.ms=0
broker.session.timeout.ms=$BROKER_SESSION_TIMEOUT_MS
auto.create.topics.enable=false
delete.topic.enable=true
log.cleaner.enable=true
EOF
  cat >"$LOG4J" <<EOF
# Generated by scripts/kafka/kafka.sh
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.RollingFileAppender
log4j.appender.file.File=$SERVER_LOG
log4j.appender.file.MaxFileSize=20MB
log4j.appender.file.MaxBackupIndex=3
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.request.logger=WARN
log4j.logger.kafka.network.RequestChannel\$=WARN
log4j.logger.org.apache.kafka.controller=INFO
log4j.logger.kafka.log.LogCleaner=INFO
log4j.logger.state.change.logger=INFO
log4j.logger.kafka.authorizer.logger=INFO
EOF
  cat >"$TOOLS_LOG4J" <<EOF
# Generated by scripts/kafka/kafka.sh (StorageTool runs)
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
}

storage_tool() {
  "$JAVA" -Xmx256m -cp "$LIBS/*" -Dlog4j.configuration="file:$TOOLS_LOG4J" \
    kafka.tools.StorageTool "$@"
}

format_storage() {
  [[ -f "$DATA/meta.properties" ]] && return 0
  local cid=""
  [[ -s "$CLUSTER_ID_FILE" ]] && cid="$(tr -d '[:space:]' <"$CLUSTER_ID_FILE")"
  if [[ -z "$cid" ]]; then
    cid="$(storage_tool random-uuid | tr -d '[:space:]')"
    [[ -n "$cid" ]] || die "kafka.tools.StorageTool random-uuid printed no cluster id"
    echo "$cid" >"$CLUSTER_ID_FILE"
  fi
  log "formatting KRaft storage in $DATA (cluster id $cid)"
  storage_tool format -t "$cid" -c "$CONF" "${FORMAT_ARGS[@]}" >&2 || die "formatting KRaft storage failed"
}

# server.log written since this start (whole file if it was rolled meanwhile).
log_since_start() {
  [[ -f "$SERVER_LOG" ]] || return 0
  local off=0 size
  [[ -f "$OFFSET_FILE" ]] && off="$(tr -dc '0-9' <"$OFFSET_FILE")"
  off="${off:-0}"
  size="$(stat -c %s "$SERVER_LOG")"
  (( size >= off )) || off=0
  tail -c "+$(( off + 1 ))" "$SERVER_LOG"
}

log_tail() {
  echo "----- $SERVER_LOG (last 40 lines since this start) -----" >&2
  log_since_start | tail -n 40 >&2 || true
  echo "----- $OUT_FILE (last 20 lines) -----" >&2
  tail -n 20 "$OUT_FILE" >&2 2>/dev/null || true
}

# "Kafka Server started" written to server.log since this start (byte offset in OFFSET_FILE).
started_logged() {
  # Process substitution, not a pipe: with pipefail, grep -q quitting early could fail the pipe.
  grep -q "Kafka Server started" < <(log_since_start)
}

wait_ready() {
  local pid="$1" deadline=$((SECONDS + KAFKA_START_TIMEOUT))
  while (( SECONDS < deadline )); do
    if ! kill -0 "$pid" 2>/dev/null; then
      log_tail
      rm -f "$PID_FILE"
      die "the broker (pid $pid) exited during startup; see the log above"
    fi
    if started_logged && port_open "$PORT"; then
      return 0
    fi
    sleep 0.5
  done
  log_tail
  log "stopping the broker that did not become ready"
  stop_broker
  die "the broker did not become ready within ${KAFKA_START_TIMEOUT}s (no 'Kafka Server started' plus open port $HOST:$PORT)"
}

# Starts the current node's broker in the background without waiting for it, and sets
# LAUNCHED_PID. A broker of this node that already runs is left alone.
launch() {
  LAUNCHED_PID="$(broker_pid)"
  [[ -n "$LAUNCHED_PID" ]] && return 0
  rm -f "$PID_FILE"

  local p
  for p in "$PORT" "$CONTROLLER_PORT"; do
    if port_open "$p"; then
      die "port $HOST:$p is already in use by another process (not the broker of $WORK); stop it or choose other ports (see the environment above)"
    fi
  done

  write_config
  format_storage

  if [[ -f "$SERVER_LOG" ]]; then stat -c %s "$SERVER_LOG" >"$OFFSET_FILE"; else echo 0 >"$OFFSET_FILE"; fi
  {
    echo
    echo "===== $(date '+%Y-%m-%d %H:%M:%S') kafka.sh start (node $NODE_ID, port $PORT, controller $CONTROLLER_PORT) ====="
  } >>"$OUT_FILE"

  log "starting Kafka node $NODE_ID on $HOST:$PORT (work dir $WORK)"
  # setsid: own session, so the broker survives the calling shell and its job control;
  # the inner bash records its own pid then execs java, so the pid file is java's pid.
  # shellcheck disable=SC2086,SC2016  # word-split heap opts; $$ is for the inner bash
  (cd "$WORK" && exec nohup setsid bash -c 'echo $$ >"$1"; shift; exec "$@"' _ "$PID_FILE" \
      "$JAVA" $KAFKA_HEAP_OPTS -XX:+UseG1GC -Djava.awt.headless=true \
      -Dlog4j.configuration="file:$LOG4J" \
      -cp "$LIBS/*" kafka.Kafka "$CONF") >>"$OUT_FILE" 2>&1 </dev/null 9>&- &

  local _
  for _ in $(seq 1 50); do
    [[ -s "$PID_FILE" ]] && break
    sleep 0.1
  done
  [[ -s "$PID_FILE" ]] || { log_tail; die "the broker process did not start"; }
  LAUNCHED_PID="$(tr -dc '0-9' <"$PID_FILE")"
}

prepare_start() {
  command -v "$JAVA" >/dev/null 2>&1 || die "java not found (Java 17 is needed)"
  fetch
}

start() {
  prepare_start
  launch
  wait_ready "$LAUNCHED_PID"
  echo "Kafka running (pid $LAUNCHED_PID) on $HOST:$PORT"
}

stop_broker() {
  local pid
  pid="$(broker_pid)"
  if [[ -z "$pid" ]]; then
    rm -f "$PID_FILE"
    echo "Kafka not running"
    return 0
  fi
  log "stopping Kafka (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  local deadline=$((SECONDS + STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null && (( SECONDS < deadline )); do
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "broker did not exit within ${STOP_TIMEOUT}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  fi
  rm -f "$PID_FILE"
  echo "Kafka stopped"
}

status() {
  local pid
  pid="$(broker_pid)"
  if [[ -n "$pid" ]] && port_open "$PORT"; then
    echo "running"
    return 0
  fi
  echo "stopped"
  return 1
}

reset() {
  stop_broker
  rm -rf "$DATA" "$OFFSET_FILE"
  echo "Kafka data deleted ($DATA); jars kept"
}

# ---- cluster: several KRaft nodes on this machine ------------------------------------------

use_cluster() {
  mkdir -p "$KAFKA_CLUSTER_DIR"
  CLUSTER_WORK="$(cd "$KAFKA_CLUSTER_DIR" && pwd)"
  LOCK_FILE="$CLUSTER_WORK/.lock"
  CLUSTER_ID_FILE="$CLUSTER_WORK/cluster-id"
  (( KAFKA_CLUSTER_SIZE >= 1 && KAFKA_CLUSTER_SIZE <= 9 )) || die "KAFKA_CLUSTER_SIZE must be 1-9"
  REPLICATION=$(( KAFKA_CLUSTER_SIZE < 3 ? KAFKA_CLUSTER_SIZE : 3 ))
  MIN_ISR=$(( KAFKA_CLUSTER_SIZE < 2 ? KAFKA_CLUSTER_SIZE : 2 ))
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

# ---- secure: one broker with a SASL_SSL client listener --------------------------------------

SECURE_ADMIN_PASSWORD=admin-secret
SECURE_STORE_PASSWORD=switchyard-local

use_secure() {
  mkdir -p "$KAFKA_SECURE_DIR"
  local work
  work="$(cd "$KAFKA_SECURE_DIR" && pwd)"
  use_node "$work" 1 "$KAFKA_SECURE_PORT" $(( KAFKA_SECURE_PORT + 1 ))
  LOCK_FILE="$work/.lock"
  CLUSTER_ID_FILE="$work/cluster-id"
  TLS="$work/tls"
  VOTERS="1@$HOST:$CONTROLLER_PORT"
  local jaas="org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\" password=\"$SECURE_ADMIN_PASSWORD\";"
  MTLS_PORT=$(( KAFKA_SECURE_PORT + 2 ))
  LISTENER_CONF="listeners=SASL_SSL://$HOST:$PORT,CONTROLLER://$HOST:$CONTROLLER_PORT,SSL://$HOST:$MTLS_PORT
advertised.listeners=SASL_SSL://$HOST:$PORT,SSL://$HOST:$MTLS_PORT
listener.security.protocol.map=SASL_SSL:SASL_SSL,CONTROLLER:PLAINTEXT,SSL:SSL
listener.name.ssl.ssl.client.auth=required
inter.broker.listener.name=SASL_SSL
sasl.enabled.mechanisms=SCRAM-SHA-512,SCRAM-SHA-256
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=$jaas
listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=$jaas
ssl.keystore.type=PKCS12
ssl.keystore.location=$TLS/broker.p12
ssl.keystore.password=$SECURE_STORE_PASSWORD
ssl.key.password=$SECURE_STORE_PASSWORD
ssl.truststore.type=PKCS12
ssl.truststore.location=$TLS/truststore.p12
ssl.truststore.password=$SECURE_STORE_PASSWORD"
  # SCRAM credentials live in the cluster metadata; KRaft takes them at format time (KIP-900).
  FORMAT_ARGS=(
    --add-scram "SCRAM-SHA-512=[name=admin,password=$SECURE_ADMIN_PASSWORD]"
    --add-scram "SCRAM-SHA-512=[name=$KAFKA_SECURE_USER,password=$KAFKA_SECURE_PASSWORD]"
    --add-scram "SCRAM-SHA-256=[name=$KAFKA_SECURE_USER,password=$KAFKA_SECURE_PASSWORD]"
  )
}

# A local CA, a broker certificate it signs for 127.0.0.1 and localhost (the name clients
# verify) as PKCS12 key and trust stores, and a client certificate for mTLS; made once per work dir.
make_certificates() {
  [[ -f "$TLS/broker.p12" && -f "$TLS/truststore.p12" && -f "$TLS/client.pem" ]] && return 0
  command -v openssl >/dev/null 2>&1 || die "openssl not found (needed for the secure broker's certificates)"
  command -v keytool >/dev/null 2>&1 || die "keytool not found (it comes with Java 17)"
  rm -rf "$TLS" && mkdir -p "$TLS"
  log "making a local CA and broker certificate in $TLS"
  (
    cd "$TLS"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 3650 -subj "/CN=Switchyard local Kafka CA" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout broker.key -out broker.csr -subj "/CN=localhost" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n' >broker.ext
    openssl x509 -req -in broker.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out broker.pem -days 3650 -extfile broker.ext 2>/dev/null
    openssl pkcs12 -export -in broker.pem -inkey broker.key -certfile ca.pem -name broker -out broker.p12 -passout "pass:$SECURE_STORE_PASSWORD"
    keytool -importcert -noprompt -alias ca -file ca.pem -keystore truststore.p12 -storetype PKCS12 -storepass "$SECURE_STORE_PASSWORD" >/dev/null 2>&1
    openssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj "/CN=$KAFKA_SECURE_USER" 2>/dev/null
    printf 'extendedKeyUsage=clientAuth\n' >client.ext
    openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 3650 -extfile client.ext 2>/dev/null
  ) || die "making the certificates failed"
}

secure_start() {
  prepare_start
  make_certificates
  launch
  wait_ready "$LAUNCHED_PID"
  echo "Kafka running (pid $LAUNCHED_PID): SASL_SSL on $HOST:$PORT (user $KAFKA_SECURE_USER), mTLS on $HOST:$MTLS_PORT; CA $TLS/ca.pem"
}

secure_reset() {
  stop_broker
  rm -rf "$DATA" "$OFFSET_FILE" "$CLUSTER_ID_FILE" "$TLS"
  echo "secure Kafka data and certificates deleted ($WORK); jars kept"
}

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'
}

cmd="${1:-}"
case "$cmd" in
  cluster)
    use_cluster
    case "${2:-}" in
      start)  take_lock; cluster_start ;;
      stop)   take_lock; cluster_stop ;;
      status) cluster_status ;;
      kill)   cluster_kill "${3:-}" ;;
      reset)  take_lock; cluster_reset ;;
      *) usage >&2; exit 2 ;;
    esac ;;
  secure)
    use_secure
    case "${2:-}" in
      start)  take_lock; secure_start ;;
      stop)   take_lock; stop_broker ;;
      status) status ;;
      reset)  take_lock; secure_reset ;;
      *) usage >&2; exit 2 ;;
    esac ;;
  *)
    use_single
    case "$cmd" in
      fetch)  take_lock; fetch ;;
      start)  take_lock; start ;;
      stop)   take_lock; stop_broker ;;
      status) status ;;
      reset)  take_lock; reset ;;
      -h|--help|help) usage ;;
      *) usage >&2; exit 2 ;;
    esac ;;
esac
