#!/usr/bin/env bash
# Builds kustomize (a Go module) into the git-ignored .cache/bin/kustomize with `go install`
# and prints its path. Idempotent: a no-op when that version is already there. Safe when several
# test runs start at once (each builds into a private directory, then renames into place).
# Used by .ci/run before the tests, and by test/deploy/manifests.spec.ts when the binary is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

version=v5.7.1
bin=.cache/bin/kustomize
if [ ! -x "$bin" ] || [ "$("$bin" version 2>/dev/null)" != "$version" ]; then
  command -v go >/dev/null 2>&1 || { echo "setup-kustomize: go is required to build kustomize $version" >&2; exit 1; }
  echo "building kustomize $version into $bin" >&2
  mkdir -p .cache/bin
  tmp="$(mktemp -d .cache/.kustomize.XXXXXX)"
  trap 'rm -rf "$tmp"' EXIT
  GOBIN="$PWD/$tmp" GOFLAGS=-mod=mod go install "sigs.k8s.io/kustomize/kustomize/v5@$version" >&2
  mv -f "$tmp/kustomize" "$bin"
fi
echo "$PWD/$bin"
