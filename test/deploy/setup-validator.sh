#!/usr/bin/env bash
# Installs the offline Kubernetes schema validator (PyPI: kubernetes-validate, pinned with its
# dependencies in requirements.txt beside this script) under the git-ignored
# .cache/kubernetes-validate/<python version>-<requirements hash>/site-packages, and prints that
# path. Idempotent (a no-op when that directory exists) and safe when several test runs start at
# once: each installs into a private temporary directory that is renamed into place.
# Run by scripts/setup-test-tools.sh; test/deploy/manifests.spec.ts asks for the path with --path,
# which installs nothing and fails with a hint when the validator is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

python="${PYTHON:-python3}"
req=test/deploy/requirements.txt
root=.cache/kubernetes-validate
version="$("$python" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')"
key="py${version}-$(sha256sum "$req" | cut -c1-16)"
dest="$root/$key"

if [ "${1:-}" = --path ] && [ ! -f "$dest/installed" ]; then
  echo "kubernetes-validate is not installed in $dest: run scripts/setup-test-tools.sh" >&2
  exit 1
fi
if [ ! -f "$dest/installed" ]; then
  echo "installing kubernetes-validate into $dest" >&2
  mkdir -p "$root"
  tmp="$(mktemp -d "$root/.install.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  PIP_ROOT_USER_ACTION=ignore "$python" -m pip install --quiet --disable-pip-version-check --no-input \
    --target "$tmp/site-packages" -r "$req" >&2
  touch "$tmp/installed"
  # Another run may have finished first; then its copy stays and ours is dropped.
  mv -T "$tmp" "$dest" 2>/dev/null || true
fi
echo "$PWD/$dest/site-packages"
