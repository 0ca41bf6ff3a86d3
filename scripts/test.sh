#!/usr/bin/env bash
# `npm test`: installs the test tools (scripts/setup-test-tools.sh), then type check, lint, the whole
# jest suite (unit, integration against real Kafka, end to end, SDK conformance, browser), the Go
# client's tests (and a vet of the Go benchmark tools, so they keep compiling), and last the
# broker-backed suites again against a second broker running the newest Kafka 4 (the default broker
# runs Kafka 3.9), so both supported majors stay proven.
# `npm test -- <jest args>` (a path, -t NAME, …) runs only jest with those arguments.
# Starts the local KRaft broker when KAFKA_BROKERS is unset and stops it after.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 0 ] && bash scripts/setup-test-tools.sh
# shellcheck source=scripts/lib/local-env.sh
source scripts/lib/local-env.sh
# shellcheck source=scripts/lib/newest-kafka.sh
source scripts/lib/newest-kafka.sh
started_newest_kafka=0
stop_started_brokers() {
  if [ "$started_newest_kafka" = 1 ]; then newest_kafka stop || true; fi
  stop_started_kafka
}
trap stop_started_brokers EXIT

# What the newest Kafka must pass too: the pipeline, the router with and without transactions,
# delivery, the console, and the consumers' fetch sessions.
NEWEST_KAFKA_SUITES=(
  libs/kafka/src/kafkajs-fetch-session.integration.spec.ts
  test/e2e/pipeline.spec.ts
  apps/router/src/events/event-routing.integration.spec.ts
  apps/delivery/src/delivery.integration.spec.ts
  apps/console/src/api/console-api.integration.spec.ts
  test/e2e/console.spec.ts
)

if [ $# -gt 0 ]; then
  jest "$@"
  exit
fi
echo "== type check"; tsc -p tsconfig.json --noEmit
echo "== lint"; npm run --silent lint
echo "== jest (unit, integration, e2e, conformance)"; jest
echo "== Go client (go test -race)"
(cd clients/go && go test -race -count=1 ./...)
echo "== Go benchmark tools (go vet)"
(cd bench/go && go vet ./...)
echo "== broker-backed suites on the newest Kafka 4 ($NEWEST_KAFKA_BROKERS)"
# Reset first: the work dir may hold data of an earlier newest version, which another cannot read.
newest_kafka reset >/dev/null
started_newest_kafka=1
newest_kafka start
# The paths go first: --selectProjects takes every word after it as a project name.
KAFKA_BROKERS="$NEWEST_KAFKA_BROKERS" jest "${NEWEST_KAFKA_SUITES[@]}" --selectProjects=integration
