#!/usr/bin/env bash
# The whole suite: type check, lint, unit + integration + end-to-end (jest, real Kafka) and the
# Go client's tests (and a vet of the Go benchmark tools, so they keep compiling). Starts the local KRaft broker when KAFKA_BROKERS is unset and stops it after.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/local-env.sh
source scripts/lib/local-env.sh
trap stop_started_kafka EXIT

echo "== type check"; tsc -p tsconfig.json --noEmit
echo "== lint"; eslint .
echo "== jest (unit, integration, e2e, conformance)"; jest "$@"
if [ $# -eq 0 ]; then
  echo "== Go client (go test -race)"
  (cd clients/go && go test -race -count=1 ./...)
  echo "== Go benchmark tools (go vet)"
  (cd bench/go && go vet ./...)
fi
