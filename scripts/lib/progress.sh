# Sourced: run_with_progress LABEL CMD… runs a long, quiet command and prints a line every 15 s
# while it works, so a first run never sits silent for minutes. Its output goes to a log that is
# shown only when it fails.
run_with_progress() {
  local label="$1"; shift
  local log; log="$(mktemp)"
  local started=$SECONDS
  echo "$label…"
  "$@" >"$log" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    for _ in $(seq 1 15); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -0 "$pid" 2>/dev/null && echo "  … still $label ($((SECONDS - started)) s)"
  done
  if wait "$pid"; then
    echo "  done: $label ($((SECONDS - started)) s)"
    rm -f "$log"
  else
    local rc=$?
    echo "FAILED: $label (exit $rc); its output:" >&2
    cat "$log" >&2
    rm -f "$log"
    return "$rc"
  fi
}
