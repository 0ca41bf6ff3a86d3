#!/usr/bin/env bash
# Prints the local broker's port. Its one definition is LOCAL_KAFKA_PORT in
# libs/config/src/local-kafka.ts, which the TypeScript side imports; a unit test runs this script
# against that constant, so a reworded line fails there rather than here.
set -euo pipefail
sed -n 's/^export const LOCAL_KAFKA_PORT = \([0-9][0-9]*\);$/\1/p' \
  "$(dirname "${BASH_SOURCE[0]}")/../../libs/config/src/local-kafka.ts"
