#!/usr/bin/env bash
# Builds kustomize (a Go module) into the git-ignored .cache/bin/kustomize with `go install`
# and prints its path. Idempotent: a no-op when that version is already there. Safe when several
# test runs start at once (each builds into a private directory, then renames into place).
# Run by scripts/setup-test-tools.sh; test/deploy/manifests.spec.ts asks for the path with --path,
# which builds nothing and fails with a hint when kustomize is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

version=v5.7.1
bin=.cache/bin/kustomize
if [ ! -x "$bin" ] || [ "$("$bin" version 2>/dev/null)" != "$version" ]; then
  if [ "${1:-}" = --path ]; then
    echo "kustomize $version is not in $bin: run scripts/setup-test-tools.sh" >&2
    exit 1
  fi
  command -v go >/dev/null 2>&1 || { echo "setup-kustomize: go is required to build kustomize $version" >&2; exit 1; }
  echo "building kustomize $version into $bin" >&2
  mkdir -p .cache/bin
  tmp="$(mktemp -d .cache/.kustomize.XXXXXX)"
  trap 'rm -rf "$tmp"' EXIT
  GOBIN="$PWD/$tmp" GOFLAGS=-mod=mod go install "sigs.k8s.io/kustomize/kustomize/v5@$version" >&2
  mv -f "$tmp/kustomize" "$bin"
fi
echo "$PWD/$bin"
