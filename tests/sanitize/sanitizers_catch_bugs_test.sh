#!/usr/bin/env bash
# The sanitized probe runs clean code, and stops with a report on each planted bug.
set -uo pipefail
probe="$1"
"$probe" > "$TEST_TMPDIR/clean.log" 2>&1 || { cat "$TEST_TMPDIR/clean.log"; echo "FAIL: clean run"; exit 1; }
for bug in heap-overflow:heap-buffer-overflow signed-overflow:"signed integer overflow"; do
  arg="${bug%%:*}" report="${bug#*:}"
  if "$probe" "$arg" > "$TEST_TMPDIR/$arg.log" 2>&1; then
    cat "$TEST_TMPDIR/$arg.log"; echo "FAIL: $arg was not caught"; exit 1
  fi
  grep -q "$report" "$TEST_TMPDIR/$arg.log" || { cat "$TEST_TMPDIR/$arg.log"; echo "FAIL: no '$report' report"; exit 1; }
  echo "caught $arg: $(grep -m1 "$report" "$TEST_TMPDIR/$arg.log")"
done
