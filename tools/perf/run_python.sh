#!/usr/bin/env bash
# Runs tools/perf/$1 (a Python script) with the pinned CPython 3.11 from the runfiles tree,
# isolated (no host site-packages); the script finds the pinned qemu and plugin there too.
set -euo pipefail
runfiles=${RUNFILES_DIR:-${TEST_SRCDIR:-}}
if [[ -z $runfiles ]]; then
  if [[ -d $0.runfiles ]]; then runfiles=$0.runfiles; else runfiles=${0%/*}; fi
fi
export RUNFILES_DIR=$runfiles
script=$1
shift
exec "$runfiles/python3/bin/python3" -B -E -s -S "$runfiles/tcpu_sdk/tools/perf/$script" "$@"
