#!/usr/bin/env bash
# Installs everything the test suite uses besides npm packages, and says what it fetches:
# system packages (Java, Maven, Go, Python's venv, Chromium for the browser tests, promtool from
# Debian's prometheus), the Kafka broker jars (the default Kafka 3.9 and the newest Kafka 4), the
# Kubernetes schema validator, kustomize and helm.
# Idempotent: a second run checks and prints one line. `npm test` and `.ci/run` call it before jest;
# tests only look the tools up (see the paths below), they never install anything.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib/progress.sh
source scripts/lib/progress.sh
# shellcheck source=scripts/lib/newest-kafka.sh
source scripts/lib/newest-kafka.sh

need_apt=()
command -v java >/dev/null 2>&1 || need_apt+=(openjdk-17-jre-headless)
command -v mvn >/dev/null 2>&1 || need_apt+=(maven)
command -v go >/dev/null 2>&1 || need_apt+=(golang-go)
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
command -v curl >/dev/null 2>&1 || need_apt+=(curl)
command -v openssl >/dev/null 2>&1 || need_apt+=(openssl)
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || need_apt+=(chromium)
command -v promtool >/dev/null 2>&1 || need_apt+=(prometheus)
if ! command -v python3 >/dev/null 2>&1; then
  need_apt+=(python3 python3-venv python3-pip)
elif ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  need_apt+=(python3-venv)   # the Python SDK conformance case builds a venv
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "setup-test-tools: missing system packages: ${need_apt[*]} (install them with your package manager, or run this script as root on Debian)" >&2
    exit 1
  fi
  run_with_progress "installing system packages: ${need_apt[*]}" \
    bash -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${need_apt[*]}"
fi

run_with_progress "fetching the Kafka 3.9 broker jars (Maven)" bash scripts/kafka/kafka.sh fetch
run_with_progress "fetching the newest Kafka 4 broker jars (Maven)" newest_kafka fetch
run_with_progress "installing the Kubernetes schema validator (PyPI: kubernetes-validate)" bash test/deploy/setup-validator.sh
run_with_progress "building kustomize (Go module)" bash test/deploy/setup-kustomize.sh
run_with_progress "building helm (Go module)" bash test/deploy/setup-helm.sh
echo "test tools ready: java, mvn, go, python3, chromium ($(command -v "${CHROMIUM_PATH:-/usr/bin/chromium}")), promtool, Kafka 3.9 and 4 jars, kubernetes-validate, kustomize, helm"
