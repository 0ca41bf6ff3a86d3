# Sourced by start.sh and test.sh: what both need before running Node and Kafka on this machine.

# kafkajs's request queue sets a negative timer when it is not throttled; Node 24 clamps it to
# 1 ms (what kafkajs means) but warns on every connection. The warning is noise, not a fault.
export NODE_OPTIONS="${NODE_OPTIONS:-} --disable-warning=TimeoutNegativeWarning"

# Uses KAFKA_BROKERS when set; otherwise starts the local KRaft broker unless it already runs,
# and sets started_kafka=1 when this script started it (so the caller stops what it started).
started_kafka=0
if [ -z "${KAFKA_BROKERS:-}" ]; then
  if ! bash scripts/kafka/kafka.sh status >/dev/null 2>&1; then
    bash scripts/kafka/kafka.sh start
    started_kafka=1
  fi
  export KAFKA_BROKERS="127.0.0.1:${KAFKA_PORT:-$(bash scripts/lib/local-kafka-port.sh)}"
fi

stop_started_kafka() {
  if [ "$started_kafka" = 1 ]; then bash scripts/kafka/kafka.sh stop || true; fi
}
