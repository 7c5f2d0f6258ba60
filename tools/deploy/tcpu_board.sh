#!/usr/bin/env bash
# tcpu-board: runs tcpu_board.py with the pinned CPython 3.11 from the runfiles tree
# (isolated: no host site-packages, no PYTHONPATH).
set -euo pipefail
runfiles=${RUNFILES_DIR:-${TEST_SRCDIR:-}}
if [[ -z $runfiles ]]; then
  if [[ -d $0.runfiles ]]; then runfiles=$0.runfiles; else runfiles=${0%/*}; fi
fi
exec "$runfiles/python3/bin/python3" -B -I -S "$runfiles/tcpu_sdk/tools/deploy/tcpu_board.py" "$@"
