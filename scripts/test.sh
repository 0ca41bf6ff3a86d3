#!/usr/bin/env bash
# `npm test`: installs the test tools (scripts/setup-test-tools.sh), then type check, lint, the whole
# jest suite (unit, integration against real Kafka, end to end, SDK conformance, browser) and the Go
# client's tests (and a vet of the Go benchmark tools, so they keep compiling).
# `npm test -- <jest args>` (a path, -t NAME, …) runs only jest with those arguments.
# Starts the local KRaft broker when KAFKA_BROKERS is unset and stops it after.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 0 ] && bash scripts/setup-test-tools.sh
# shellcheck source=scripts/lib/local-env.sh
source scripts/lib/local-env.sh
trap stop_started_kafka EXIT

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
