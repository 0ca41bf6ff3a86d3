# Sourced by kafka.sh: settings, paths and the steps every mode shares (fetch the jars of
# $KAFKA_VERSION, write one node's config, format its storage, launch it, wait until it is ready,
# stop it). A mode (single.sh, cluster.sh, secure.sh) picks its node(s) with use_node and sets
# VOTERS, LISTENER_CONF and friends before it calls launch.

log() { echo "kafka.sh: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

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

pom_property() { sed -n "s:.*<$1>\\(.*\\)</$1>.*:\\1:p" "$POM"; }

# The broker's version: the pom's kafka.version unless KAFKA_VERSION names another release, or
# `newest` (the pom's kafka.newest.version). Each version's jars get their own folder, so two
# versions never share a classpath.
KAFKA_VERSION="${KAFKA_VERSION:-$(pom_property kafka.version)}"
[[ "$KAFKA_VERSION" == newest ]] && KAFKA_VERSION="$(pom_property kafka.newest.version)"
[[ "$KAFKA_VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] \
  || die "KAFKA_VERSION must be a Kafka release such as 3.9.2 or 4.1.1, not '$KAFKA_VERSION'"
KAFKA_MAJOR="${KAFKA_VERSION%%.*}"
[[ "$KAFKA_MAJOR" == 3 || "$KAFKA_MAJOR" == 4 ]] \
  || die "KAFKA_VERSION $KAFKA_VERSION is not supported: the local broker runs Kafka 3 or 4"

mkdir -p "$KAFKA_WORK_DIR"
BASE="$(cd "$KAFKA_WORK_DIR" && pwd)"
LIBS="$BASE/libs-$KAFKA_VERSION"
MARKER="$LIBS/.pom.sha256"

# Kafka 3 logs through log4j 1 (reload4j), Kafka 4 through log4j 2; each reads its own format.
if [[ "$KAFKA_MAJOR" == 3 ]]; then
  LOG_CONFIG_NAME=log4j.properties
  LOG_CONFIG_FLAG=-Dlog4j.configuration=file:
else
  LOG_CONFIG_NAME=log4j2.properties
  LOG_CONFIG_FLAG=-Dlog4j2.configurationFile=
fi
TOOLS_LOG4J="$BASE/tools-$LOG_CONFIG_NAME"

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
  LOG4J="$WORK/$LOG_CONFIG_NAME"
  VERSION_FILE="$WORK/kafka-version"
  PID_FILE="$WORK/broker.pid"
  OUT_FILE="$LOGS/broker.out"
  SERVER_LOG="$LOGS/server.log"
  OFFSET_FILE="$WORK/server.log.offset"
}

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
  log "fetching the jars of Kafka $KAFKA_VERSION into $LIBS ..."
  local tmp="$BASE/libs.tmp.$$"
  rm -rf "$tmp"
  # Debian's Maven 3.8 prints bare ANSI resets even with -q: strip them, keep real output.
  if ! mvn -B -q -Dstyle.color=never -f "$POM" -P "kafka-$KAFKA_MAJOR" -Dkafka.version="$KAFKA_VERSION" \
      dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp" 2>&1 \
      | sed -e 's/\x1b\[[0-9;]*m//g' | { grep -v '^[[:space:]]*$' || true; } >&2; then
    rm -rf "$tmp"
    die "mvn could not fetch the jars of Kafka $KAFKA_VERSION (see output above)"
  fi
  echo "$want" >"$tmp/.pom.sha256"
  rm -rf "$LIBS"
  mv "$tmp" "$LIBS"
  log "fetched $(find "$LIBS" -name '*.jar' | wc -l) jars"
}

write_config() {
  mkdir -p "$DATA" "$LOGS"
  cat >"$CONF" <<EOF
# Generated by scripts/kafka: edits are overwritten on every start.
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
  write_log_config
}

# The broker logs to server.log (where wait_ready looks for "Kafka Server started"), the storage
# tool to stderr.
write_log_config() {
  if [[ "$KAFKA_MAJOR" == 3 ]]; then
    cat >"$LOG4J" <<EOF
# Generated by scripts/kafka: edits are overwritten on every start.
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
# Generated by scripts/kafka (storage tool runs)
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
  else
    cat >"$LOG4J" <<EOF
# Generated by scripts/kafka: edits are overwritten on every start.
status = warn
appender.file.type = RollingFile
appender.file.name = file
appender.file.fileName = $SERVER_LOG
appender.file.filePattern = $SERVER_LOG.%i
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
appender.file.policies.type = Policies
appender.file.policies.size.type = SizeBasedTriggeringPolicy
appender.file.policies.size.size = 20MB
appender.file.strategy.type = DefaultRolloverStrategy
appender.file.strategy.max = 3
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = file
logger.requests.name = kafka.request.logger
logger.requests.level = WARN
logger.channel.name = kafka.network.RequestChannel\$
logger.channel.level = WARN
EOF
    cat >"$TOOLS_LOG4J" <<EOF
# Generated by scripts/kafka (storage tool runs)
status = warn
appender.stderr.type = Console
appender.stderr.name = stderr
appender.stderr.target = SYSTEM_ERR
appender.stderr.layout.type = PatternLayout
appender.stderr.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.stderr.ref = stderr
EOF
  fi
}

storage_tool() {
  "$JAVA" -Xmx256m -cp "$LIBS/*" "$LOG_CONFIG_FLAG$TOOLS_LOG4J" \
    kafka.tools.StorageTool "$@"
}

# Data another Kafka version formatted may hold metadata this one cannot read (a downgrade fails
# to start, an upgrade rewrites it for good): refuse it rather than start on it. Data formatted
# before the version was recorded is the default version's.
check_data_version() {
  [[ -f "$VERSION_FILE" ]] || echo "$KAFKA_VERSION" >"$VERSION_FILE"
  local formatted
  formatted="$(tr -d '[:space:]' <"$VERSION_FILE")"
  [[ "$formatted" == "$KAFKA_VERSION" ]] \
    || die "$DATA holds Kafka $formatted's data, not $KAFKA_VERSION's: reset it, or set KAFKA_WORK_DIR to another dir for this version"
}

format_storage() {
  if [[ -f "$DATA/meta.properties" ]]; then
    check_data_version
    return 0
  fi
  local cid=""
  [[ -s "$CLUSTER_ID_FILE" ]] && cid="$(tr -d '[:space:]' <"$CLUSTER_ID_FILE")"
  if [[ -z "$cid" ]]; then
    cid="$(storage_tool random-uuid | tr -d '[:space:]')"
    [[ -n "$cid" ]] || die "kafka.tools.StorageTool random-uuid printed no cluster id"
    echo "$cid" >"$CLUSTER_ID_FILE"
  fi
  log "formatting KRaft storage in $DATA (cluster id $cid)"
  storage_tool format -t "$cid" -c "$CONF" "${FORMAT_ARGS[@]}" >&2 || die "formatting KRaft storage failed"
  echo "$KAFKA_VERSION" >"$VERSION_FILE"
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
# LAUNCHED_PID. A broker of this node that already runs is left alone, if its data is this version's.
launch() {
  LAUNCHED_PID="$(broker_pid)"
  if [[ -n "$LAUNCHED_PID" ]]; then
    check_data_version
    return 0
  fi
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
      "$LOG_CONFIG_FLAG$LOG4J" \
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
