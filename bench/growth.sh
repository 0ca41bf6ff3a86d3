#!/usr/bin/env bash
# How end-to-end throughput, latency and CPU change with partitions (1, 2, 4, 8) and event size
# (0.5, 4, 32 KB). Each row is one bench/end-to-end.ts run on a fresh topic namespace.
#   npm run bench:growth -- [seconds=6]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-6}"
run() {
  echo "## partitions=$1 bytes=$2"
  node --disable-warning=TimeoutNegativeWarning -r @swc-node/register bench/end-to-end.ts --seconds "$seconds" --rates 1000 --phases throughput,latency --partitions "$1" --bytes "$2" 2>&1 | grep -v '"level"' | grep -E '^(throughput|latency|ingest|router|delivery|broker|bench)'
}
for p in 1 2 4 8; do run "$p" 500; done
for b in 4096 32000; do run 6 "$b"; done
