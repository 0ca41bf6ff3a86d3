#!/usr/bin/env bash
# The whole suite: type check, lint, unit + integration + end-to-end (jest, real Kafka) and the
# Go client's tests. Starts the local KRaft broker when KAFKA_BROKERS is unset and stops it after.
set -euo pipefail
cd "$(dirname "$0")/.."
# kafkajs's request queue sets a negative timer when it is not throttled; Node 24 clamps it to
# 1 ms (what kafkajs means) but warns on every connection. The warning is noise, not a fault.
export NODE_OPTIONS="${NODE_OPTIONS:-} --disable-warning=TimeoutNegativeWarning"

started_kafka=0
if [ -z "${KAFKA_BROKERS:-}" ]; then
  if ! bash scripts/kafka/kafka.sh status >/dev/null 2>&1; then
    bash scripts/kafka/kafka.sh start
    started_kafka=1
  fi
  export KAFKA_BROKERS="127.0.0.1:${KAFKA_PORT:-9092}"
fi
cleanup() { if [ "$started_kafka" = 1 ]; then bash scripts/kafka/kafka.sh stop || true; fi; }
trap cleanup EXIT

echo "== type check"; tsc -p tsconfig.json --noEmit
echo "== lint"; eslint .
echo "== jest (unit, integration, e2e, conformance)"; jest "$@"
if [ $# -eq 0 ]; then
  echo "== Go client (go test -race)"
  (cd clients/go && go test -race -count=1 ./...)
fi
