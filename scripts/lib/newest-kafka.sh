# Sourced by test.sh and setup-test-tools.sh: the second local broker, which runs the newest Kafka 4
# (KAFKA_VERSION=newest, see scripts/kafka/pom.xml) beside the default Kafka 3.9 one, on its own
# ports and work dir, so that npm test runs the broker-backed suites against both.
NEWEST_KAFKA_PORT="${NEWEST_KAFKA_PORT:-9192}"
NEWEST_KAFKA_BROKERS="127.0.0.1:$NEWEST_KAFKA_PORT"

newest_kafka() {
  KAFKA_VERSION=newest KAFKA_PORT="$NEWEST_KAFKA_PORT" KAFKA_CONTROLLER_PORT="$((NEWEST_KAFKA_PORT + 1))" \
    KAFKA_WORK_DIR="$PWD/.kafka-newest" bash scripts/kafka/kafka.sh "$@"
}
