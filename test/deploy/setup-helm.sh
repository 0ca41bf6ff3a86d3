#!/usr/bin/env bash
# Builds helm (a Go module) into the git-ignored .cache/bin/helm with `go install` and prints its
# path. Idempotent: a no-op when that version is already there. Safe when several test runs start
# at once (each builds into a private directory, then renames into place).
# Run by scripts/setup-test-tools.sh; test/deploy/helm.spec.ts asks for the path with --path,
# which builds nothing and fails with a hint when helm is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

version=v3.22.0
k8s_minor=37 # helm v3.22.0 is built on k8s.io/* v0.37
bin=.cache/bin/helm
installed() { "$bin" version --template '{{.Version}}' 2>/dev/null; }
if [ ! -x "$bin" ] || [ "$(installed)" != "$version" ]; then
  if [ "${1:-}" = --path ]; then
    echo "helm $version is not in $bin: run scripts/setup-test-tools.sh" >&2
    exit 1
  fi
  command -v go >/dev/null 2>&1 || { echo "setup-helm: go is required to build helm $version" >&2; exit 1; }
  echo "building helm $version into $bin" >&2
  mkdir -p .cache/bin
  tmp="$(mktemp -d .cache/.helm.XXXXXX)"
  trap 'rm -rf "$tmp"' EXIT
  # The linker flags of helm's own release build: its version (the idempotence check above reads
  # it) and the Kubernetes version `helm template` and `helm lint` assume (that of its k8s.io
  # modules); without them helm assumes 1.20 and refuses the chart's kubeVersion.
  k8s="-X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=$k8s_minor"
  k8s="$k8s -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=$k8s_minor"
  GOBIN="$PWD/$tmp" GOFLAGS=-mod=mod go install \
    -ldflags "-X helm.sh/helm/v3/internal/version.version=$version $k8s" \
    "helm.sh/helm/v3/cmd/helm@$version" >&2
  mv -f "$tmp/helm" "$bin"
fi
echo "$PWD/$bin"
