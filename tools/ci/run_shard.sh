#!/usr/bin/env bash
# bazel run //tools/ci:shard -- ARGS: shard.py with the pinned CPython (see shard.py).
set -euo pipefail
runfiles=${RUNFILES_DIR:-$0.runfiles}
exec "$runfiles/python3/bin/python3" "$runfiles/tcpu_sdk/tools/ci/shard.py" "$@"
